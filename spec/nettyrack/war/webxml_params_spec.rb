# frozen_string_literal: true

require "nettyrack/war/webxml_params"

RSpec.describe Nettyrack::War::WebxmlParams do
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
