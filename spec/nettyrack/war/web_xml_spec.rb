# frozen_string_literal: true

require "java"
require "nettyrack/war/web_xml"

RSpec.describe Nettyrack::War::WebXml do
  # The text of each node at +xpath+ in +xml+, parsed by the JDK's XML parser.
  def texts(xml, xpath)
    factory = javax.xml.parsers.DocumentBuilderFactory.new_instance
    doc = factory.new_document_builder.parse(java.io.ByteArrayInputStream.new(xml.to_java_bytes))
    nodes = javax.xml.xpath.XPathFactory.new_instance.new_xpath
                 .evaluate(xpath, doc, javax.xml.xpath.XPathConstants::NODESET)
    (0...nodes.length).map { |i| nodes.item(i).text_content }
  end

  it "registers nettyrack's listener and async filter on /* with escaped context params" do
    xml = described_class.render("rack.env" => "production", "odd" => "a<b&c")
    expect(texts(xml, "//context-param/param-name")).to eq(%w[odd rack.env])
    expect(texts(xml, "//context-param/param-value")).to eq(["a<b&c", "production"])
    expect(texts(xml, "/web-app/@version")).to eq(["6.0"])
    expect(texts(xml, "//listener/listener-class")).to eq(["org.nettyrack.servlet.RackListener"])
    expect(texts(xml, "//filter/filter-class")).to eq(["org.nettyrack.servlet.RackFilter"])
    expect(texts(xml, "//filter/async-supported")).to eq(["true"])
    expect(texts(xml, "//filter-mapping/url-pattern")).to eq(["/*"])
  end
end
