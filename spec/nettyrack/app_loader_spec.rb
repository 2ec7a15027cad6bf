# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require "rack"
require "nettyrack/app_loader"
require "jruby"

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
    allow(described_class).to receive(:compiled).and_return(nil) # Rack's own way
    allow(Rack::Builder).to receive(:parse_file).with(path).and_return([app, {}], app)
    expect([described_class.load(path), described_class.load(path)]).to eq([app, app])
  end

  describe "a .ru file on JRuby" do
    around { |example| Dir.mktmpdir("nettyrack-rackup") { |dir| @dir = File.realpath(dir); example.run } }

    def rackup(text, name = "config.ru")
      File.write(File.join(@dir, name), text)
      File.join(@dir, name)
    end

    def scopes(block)
      scope = JRuby.reference(block).block.body.scope
      names = []
      while scope
        names << scope.java_class.simple_name
        scope = scope.lexical_parent
      end
      names
    end

    it "runs as Rack::Builder runs it: the builder's DSL, top-level constants, its own file, lines and requires" do
      File.write(File.join(@dir, "helper.rb"), "RACKUP_HELPER = 'helped'\n")
      path = rackup(<<~RUBY)
        # frozen_string_literal: true
        require_relative "helper"
        class DefinedByTheRackup; end
        use Rack::ContentLength
        map "/where" do
          run ->(env) { [200, { "content-type" => "text/plain" }, ["\#{__FILE__}:\#{__LINE__} \#{RACKUP_HELPER} \#{__dir__}"]] }
        end
        __END__
        not Ruby at all {
      RUBY
      app = described_class.load(path)
      status, headers, body = app.call(Rack::MockRequest.env_for("/where"))
      text = body.to_enum(:each).to_a.join
      expect([status, text]).to eq([200, "#{path}:6 helped #{@dir}"])
      expect(headers["content-length"] || headers["Content-Length"]).to eq(text.bytesize.to_s) # the use line ran
      expect(Object.const_get(:DefinedByTheRackup).name).to eq("DefinedByTheRackup")
    end

    it "is loaded as a file, not eval'd, so JRuby can compile its blocks" do
      app = described_class.load(rackup("run ->(env) { [204, {}, []] }\n"))
      expect(app.call({}).first).to eq(204)
      expect(scopes(app)).not_to include("IREvalScript")
      expect(scopes(eval("->(env) {}", TOPLEVEL_BINDING, "eval.ru", 0))).to include("IREvalScript") # what Rack's eval makes
    end

    it "reads past a byte order mark, and leaves a file starting with =begin to Rack" do
      expect(described_class.load(rackup("\xEF\xBB\xBFrun ->(env) { [201, {}, []] }\n".b)).call({}).first).to eq(201)
      app = described_class.load(rackup("=begin\nnotes\n=end\nrun ->(env) { [202, {}, []] }\n"))
      expect(app.call({}).first).to eq(202)
      expect(scopes(app)).to include("IREvalScript")
    end
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
