# frozen_string_literal: true

require "tmpdir"
require "nettyrack/rails_tuning"

RSpec.describe Nettyrack::RailsTuning do
  # A stand-in for ActionDispatch::FileHandler as Rails 6.1-8 write it: File.stat, rescuing
  # the SystemCallError of a missing file.
  def stub_file_handler
    handler = Class.new do
      def initialize(root)
        @root = root
      end

      def readable?(path)
        file_readable?(path)
      end

      private

      def file_readable?(path)
        file_stat = File.stat(File.join(@root, path.b))
      rescue SystemCallError
        false
      else
        file_stat.file? && file_stat.readable?
      end
    end
    stub_const("ActionDispatch::FileHandler", handler)
    handler
  end

  around do |example|
    Dir.mktmpdir do |root|
      @root = root
      File.write(File.join(root, "robots.txt"), "User-agent: *\n")
      Dir.mkdir(File.join(root, "assets"))
      example.run
    end
  end

  it "answers file_readable? as Rails does, without raising for a missing file" do
    handler = stub_file_handler
    before = %w[robots.txt missing.html assets assets/missing.gz].map { |path| handler.new(@root).readable?(path) }
    expect(described_class.apply({})).to eq([:file_stat_without_raise])

    raised = 0
    trace = TracePoint.new(:raise) { raised += 1 }
    after = trace.enable do
      %w[robots.txt missing.html assets assets/missing.gz].map { |path| handler.new(@root).readable?(path) }
    end
    expect(after).to eq(before)
    expect(after).to eq([true, false, false, false])
    expect(raised).to eq(0)
  end

  it "applies once, and not at all when turned off or without Rails' file handler" do
    handler = stub_file_handler
    expect(described_class.apply("NETTYRACK_RAILS_TUNING" => "off")).to eq([])
    expect(handler.ancestors).not_to include(described_class::FileStatWithoutRaise)
    expect(described_class.apply({})).to eq([:file_stat_without_raise])
    expect(described_class.apply({})).to eq([])
    hide_const("ActionDispatch::FileHandler")
    expect(described_class.apply({})).to eq([])
  end

  it "keeps Rails' own ActionDispatch::Static serving public files, with no raise per request" do
    require "action_controller"
    require "action_dispatch/middleware/static"
    described_class.apply({})
    expect(ActionDispatch::FileHandler.ancestors).to include(described_class::FileStatWithoutRaise)
    app = ->(_env) { [200, { "content-type" => "text/plain" }, ["from the app"]] }
    static = ActionDispatch::Static.new(app, @root)
    get = ->(path) { Rack::MockRequest.new(static).get(path, "HTTP_ACCEPT_ENCODING" => "gzip, br") }

    raised = 0
    trace = TracePoint.new(:raise) { raised += 1 }
    robots, root, assets = trace.enable { %w[/robots.txt / /assets].map(&get) }
    expect([robots.status, robots.body]).to eq([200, "User-agent: *\n"])
    expect([root.status, root.body]).to eq([200, "from the app"])
    expect([assets.status, assets.body]).to eq([200, "from the app"])
    expect(raised).to eq(0)
  end

  describe ".app" do
    # A stand-in for Rails::Application: the class answers call through method_missing, as
    # Rails::Railtie's does, by handing it to its one instance.
    def stub_rails_application
      application = Class.new do
        def self.instance = (@instance ||= new)
        def self.respond_to_missing?(name, include_all = false) = instance.respond_to?(name) || super

        def self.method_missing(name, *args, &block)
          instance.respond_to?(name) ? instance.public_send(name, *args, &block) : super
        end

        def call(_env) = [200, {}, ["from the instance"]]
      end
      stub_const("Rails::Application", application)
      Class.new(application)
    end

    it "calls a Rails application class's instance, which is where its method_missing would send the call" do
      app = stub_rails_application
      expect(described_class.app(app, {})).to be(app.instance)
      expect(described_class.app(app, {}).call({})).to eq(app.call({}))
    end

    it "leaves every other app, and a Rails application class when told to, as it is" do
      app = stub_rails_application
      lambda_app = ->(_env) { [200, {}, []] }
      expect(described_class.app(lambda_app, {})).to be(lambda_app)
      expect(described_class.app(app.instance, {})).to be(app.instance)
      expect(described_class.app(app, "NETTYRACK_RAILS_TUNING" => "off")).to be(app)
    end
  end
end
