# frozen_string_literal: true

require "nettyrack/rails_check"

RSpec.describe Nettyrack::RailsCheck do
  # A stand-in for ::Rails: an application whose config says eager_load, cache_classes and
  # log_level, whose middleware stack holds +middleware+ (classes), and a logger at +level+.
  def with_rails(eager_load, cache_classes: true, env: "production", middleware: [], log_level: :info, logger_level: nil)
    config = Struct.new(:eager_load, :cache_classes, :log_level).new(eager_load, cache_classes, log_level)
    stack = middleware.map { |klass| Struct.new(:klass).new(klass) }
    application = Struct.new(:config, :middleware).new(config, stack)
    logger = logger_level && Struct.new(:level).new(logger_level)
    rails = Module.new
    rails.define_singleton_method(:application) { application }
    rails.define_singleton_method(:env) { env }
    rails.define_singleton_method(:logger) { logger }
    stub_const("Rails", rails)
    yield
  end

  it "warns when Rails loads lazily on several threads" do
    with_rails(false) do
      expect(described_class.warnings(16))
        .to contain_exactly(start_with("nettyrack: warning: Rails runs on 16 threads with config.eager_load = false"))
    end
  end

  it "says nothing for a production setup that serves in parallel, one thread, or no Rails" do
    with_rails(true) { expect(described_class.warnings(16)).to eq([]) }
    with_rails(false) { expect(described_class.warnings(1)).to eq([]) }
    hide_const("Rails") if defined?(Rails)
    expect(described_class.warnings(16)).to eq([])
  end

  it "warns when production Rails reloads code, on any number of threads" do
    with_rails(true, cache_classes: nil) do
      expect(described_class.warnings(1)).to contain_exactly(start_with("nettyrack: warning: Rails reloads code in production"))
    end
    with_rails(true, cache_classes: false, env: "development") { expect(described_class.warnings(16)).to eq([]) }
  end

  it "warns when Rack::Lock serves one request at a time on several threads" do
    stub_const("Rack::Lock", Class.new)
    with_rails(true, middleware: [Class.new, Rack::Lock]) do
      expect(described_class.warnings(8)).to contain_exactly(
        "nettyrack: warning: Rails' middleware has Rack::Lock (config.allow_concurrency = false), so its 8 " \
        "threads serve one request at a time; remove config.allow_concurrency = false, or run with -t 1"
      )
      expect(described_class.warnings(1)).to eq([])
    end
  end

  it "warns when production Rails logs at debug level, read from its logger when there is one" do
    with_rails(true, log_level: :debug) do
      expect(described_class.warnings(4)).to contain_exactly(start_with("nettyrack: warning: Rails logs at debug level in production"))
    end
    with_rails(true, log_level: :info, logger_level: 0) { expect(described_class.warnings(4).size).to eq(1) }
    with_rails(true, log_level: :debug, logger_level: 1) { expect(described_class.warnings(4)).to eq([]) }
    with_rails(true, log_level: :debug, env: "development") { expect(described_class.warnings(4)).to eq([]) }
  end

  it "names every setting that applies, one line each" do
    stub_const("Rack::Lock", Class.new)
    with_rails(false, cache_classes: false, middleware: [Rack::Lock], log_level: :debug) do
      expect(described_class.warnings(4).size).to eq(4)
    end
  end
end
