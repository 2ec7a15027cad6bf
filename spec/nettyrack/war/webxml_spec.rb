# frozen_string_literal: true

require "java"
require "nettyrack/war/webxml"
require "nettyrack/war/web_xml"

RSpec.describe Nettyrack::War::Webxml do
  it "turns dotted attribute chains into context params, at any depth" do
    webxml = described_class.new
    webxml.rack.env = "staging"
    webxml.jruby.max.runtimes = 1
    webxml["gem.path"] = "/WEB-INF/gems"
    webxml.jndi = "jdbc/shop"
    expect(webxml.context_params)
      .to eq("rack.env" => "staging", "jruby.max.runtimes" => "1", "gem.path" => "/WEB-INF/gems")
  end

  it "leaves out the keys named in ignored" do
    webxml = described_class.new
    webxml.a.b = "x"
    webxml.c = "y"
    webxml.ignored = %w[c]
    expect(webxml.context_params).to eq("a.b" => "x")
  end
end

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
