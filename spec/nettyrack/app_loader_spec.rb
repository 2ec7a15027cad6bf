# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require "rack"
require "nettyrack/app_loader"

RSpec.describe Nettyrack::AppLoader do
  let(:fixtures) { File.expand_path("../fixtures", __dir__) }

  def error_for(path)
    described_class.load(path)
    raise "no error"
  rescue Nettyrack::BootError => e
    e.message
  end

  it "returns the app a rackup file runs" do
    app = described_class.load(File.join(fixtures, "hello.ru"))
    status, _headers, body = app.call(Rack::MockRequest.env_for("/there"))
    expect([status, body.to_enum(:each).to_a.join]).to eq([200, "hello /there"])
  end

  it "takes the app from Rack 2's [app, options] and from Rack 3's app alone" do
    app = ->(_env) { [204, {}, []] }
    path = File.join(fixtures, "hello.ru")
    allow(Rack::Builder).to receive(:parse_file).with(path).and_return([app, {}], app)
    expect([described_class.load(path), described_class.load(path)]).to eq([app, app])
  end

  it "says where the syntax error is" do
    expect(error_for("spec/fixtures/syntax_error.ru")).to match(%r{\Asyntax error in spec/fixtures/syntax_error\.ru:\d+: \S})
  end

  it "says what was raised, and where, while the file loaded" do
    expect(error_for("spec/fixtures/raises.ru"))
      .to eq("error loading spec/fixtures/raises.ru: uninitialized constant NoSuchMiddleware (NameError) at spec/fixtures/raises.ru:3")
  end

  it "names a missing file" do
    expect(error_for("spec/fixtures/none.ru")).to eq("no such file: spec/fixtures/none.ru (in #{Dir.pwd})")
  end

  it "tells how to pass a rackup file when there is no config.ru" do
    Dir.mktmpdir("nettyrack-empty") do |empty|
      real = File.realpath(empty)
      expect(Dir.chdir(real) { error_for("config.ru") }).to eq("no config.ru in #{real}; pass one: nettyrack path/to/config.ru")
    end
  end
end
