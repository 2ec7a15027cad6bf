# frozen_string_literal: true

RSpec.describe Nettyrack::Configuration do
  describe "DEFAULTS" do
    it "holds the documented values" do
      expect(described_class::DEFAULTS).to include(
        host: "0.0.0.0", port: 9292, environment: "development", rackup: "config.ru", quiet: false,
        access_log: nil, max_body_size: 100 * 1024 * 1024, max_header_size: 16 * 1024,
        max_uri_length: 8 * 1024, max_headers: 100, max_chunk_extensions: 16 * 1024, body_buffer: 128 * 1024, max_discard_size: 4 * 1024 * 1024,
        header_timeout: 30,
        keep_alive_timeout: 20, write_timeout: 60, shutdown_timeout: 30, queue_size: 1024, io_threads: 0,
        pubsub: nil, proxy_protocol: false, http2: true, max_concurrent_streams: 100, http2_initial_window: 65_535,
        http2_max_resets: 200, http2_reset_window: 30, file_cache: 1, file_cache_entries: 1024
      )
    end

    it "has a default for every limit" do
      expect(Nettyrack::Settings::BUILDER_NAMES - described_class::DEFAULTS.keys).to be_empty
    end

    it("is frozen") { expect(described_class::DEFAULTS).to be_frozen }
  end

  describe ".merge" do
    it "gives the defaults when no layer says otherwise" do
      config = described_class.merge(cores: 2)
      expect([config.binds, config.threads, config.environment, config.rackup, config.quiet?, config.access_log])
        .to eq([[Nettyrack::Bind.tcp("0.0.0.0", 9292)], [2, 4], "development", "config.ru", false, nil])
    end

    it "defaults to one thread per core at least and max(4, 2 x cores) at most" do
      expect([1, 2, 4, 8].map { |cores| described_class.merge(cores: cores).threads }).to eq([[1, 4], [2, 4], [4, 8], [8, 16]])
    end

    it "lets the default pool add 2 x MAX threads for work that waits, and a pool whose threads were chosen none" do
      expect([1, 2, 8].map { |cores| described_class.merge(cores: cores).limits[:wait_threads] }).to eq([8, 8, 32])
      expect(described_class.merge({ threads: [4, 4] }, cores: 2).limits[:wait_threads]).to eq(0)
      expect(described_class.merge(described_class.env_layer({ "RAILS_MAX_THREADS" => "5" }), cores: 2).limits[:wait_threads]).to eq(0)
      expect(described_class.merge({ threads: [4, 4] }, { wait_threads: 6 }, cores: 2).limits[:wait_threads]).to eq(6)
      expect(described_class.merge({ wait_threads: 0 }, cores: 2).limits[:wait_threads]).to eq(0)
    end

    it "lets a later layer win" do
      config = described_class.merge({ environment: "staging", max_headers: 10 }, { environment: "production" })
      expect([config.environment, config.limits[:max_headers]]).to eq(["production", 10])
    end

    it "replaces the listeners of lower layers, not adding to them" do
      config = described_class.merge({ binds: [Nettyrack::Bind.tcp("127.0.0.1", 1), Nettyrack::Bind.tcp("::1", 2)] }, { binds: [Nettyrack::Bind.tcp("0.0.0.0", 3)] })
      expect(config.binds).to eq([Nettyrack::Bind.tcp("0.0.0.0", 3)])
    end

    it "keeps a lower layer's minimum when only a maximum is given, capped at that maximum" do
      expect(described_class.merge({ threads: [4, 32] }, { threads: [nil, 8] }).threads).to eq([4, 8])
      expect(described_class.merge({ threads: [4, 32] }, { threads: [nil, 2] }).threads).to eq([2, 2])
    end

    it "keeps pub/sub in-process unless a layer names a Redis URL, which a later `local` (nil) undoes" do
      expect(described_class.merge.pubsub).to be_nil
      expect(described_class.merge({ pubsub: "redis://h:6379" }).pubsub).to eq("redis://h:6379")
      expect(described_class.merge({ pubsub: "redis://h:6379" }, { pubsub: nil }).pubsub).to be_nil
    end

    it "refuses a setting it does not know" do
      expect { described_class.merge({ workers: 2 }) }.to raise_error(ArgumentError, "unknown setting :workers")
    end

    it("is development only in development") do
      expect(%w[development production test].map { |env| described_class.merge({ environment: env }).development? })
        .to eq([true, false, false])
    end
  end

  describe ".keyword_layer (Server.new's keywords, rackup's options)" do
    let(:default_bind) { [Nettyrack::Bind.tcp("0.0.0.0", 9292)] }

    it "reads each value as the CLI does, nil being the default" do
      layer = described_class.keyword_layer(threads: "2:4", max_body_size: "1k", header_timeout: "500ms", http2: "no",
                                            control_token: nil, access_log_format: :json)
      expect(layer).to eq(threads: [2, 4], max_body_size: 1024, header_timeout: 0.5, http2: false, access_log_format: "json",
                          binds: default_bind)
    end

    it "listens on host:port beside binds given as URIs, pairs or Binds, and on the default address without any" do
      binds = ["tcp://[::1]:1", ["127.0.0.2", "2"], Nettyrack::Bind.tcp("127.0.0.3", 3)]
      expect(described_class.keyword_layer(host: "127.0.0.1", port: "0", binds: binds)[:binds])
        .to eq([Nettyrack::Bind.tcp("::1", 1), Nettyrack::Bind.tcp("127.0.0.2", 2), Nettyrack::Bind.tcp("127.0.0.3", 3),
                Nettyrack::Bind.tcp("127.0.0.1", 0)])
      expect(described_class.keyword_layer(binds: "unix:///tmp/app.sock")[:binds].map(&:to_s)).to eq(["unix:///tmp/app.sock"])
      expect(described_class.keyword_layer(port: 8080)[:binds]).to eq([Nettyrack::Bind.tcp("0.0.0.0", 8080)])
      expect(described_class.keyword_layer[:binds]).to eq(default_bind)
    end

    it "takes a list setting's whole list, and a control URL as a pair too" do
      layer = described_class.keyword_layer(public_cache_control: [["/a/", "max-age=1"], "/b/=no-cache"], control_url: ["::1", 0])
      expect(layer.values_at(:public_cache_control, :control_url)).to eq([[["/a/", "max-age=1"], ["/b/", "no-cache"]], ["::1", 0]])
      expect(described_class.keyword_layer(public_cache_control: { "/assets/" => "max-age=60" })[:public_cache_control])
        .to eq([["/assets/", "max-age=60"]])
    end

    it "names the keyword whose value is bad" do
      expect { described_class.keyword_layer(max_body_size: "lots") }
        .to raise_error(Nettyrack::ConfigError, /\Ainvalid max_body_size: "lots" is not a size/)
      expect { described_class.keyword_layer(binds: [["127.0.0.1", "http"]]) }
        .to raise_error(Nettyrack::ConfigError, 'invalid binds: "http" is not a port (0..65535)')
    end

    it "refuses a keyword that is no setting's, or a setting Server.new does not take" do
      expect { described_class.keyword_layer(workers: 2) }.to raise_error(ArgumentError, "unknown keyword: workers")
      expect { described_class.keyword_layer(environment: "test", rackup: "x.ru") }
        .to raise_error(ArgumentError, "unknown keywords: environment, rackup")
    end

    it "is a Configuration over the defaults with .from_keywords" do
      config = described_class.from_keywords(host: "127.0.0.1", port: 0, threads: [1, 3], max_headers: "10")
      expect([config.binds, config.threads, config.limits[:max_headers], config.limits[:wait_threads]])
        .to eq([[Nettyrack::Bind.tcp("127.0.0.1", 0)], [1, 3], 10, 0])
    end
  end

  describe ".env_layer" do
    it "reads RACK_ENV" do
      expect(described_class.env_layer({ "RACK_ENV" => "production" })).to eq(environment: "production")
    end

    it "ignores empty values" do
      expect(described_class.env_layer({ "RACK_ENV" => "", "RAILS_MAX_THREADS" => " " })).to eq({})
    end

    it "makes RAILS_MAX_THREADS alone a fixed pool, as Rails' puma.rb does" do
      expect(described_class.env_layer({ "RAILS_MAX_THREADS" => "5" })).to eq(threads: [5, 5])
    end

    it "takes the minimum from RAILS_MIN_THREADS" do
      expect(described_class.env_layer({ "RAILS_MAX_THREADS" => "5", "RAILS_MIN_THREADS" => "1" })).to eq(threads: [1, 5])
    end

    it "keeps the default maximum (or more) with RAILS_MIN_THREADS alone" do
      expect(described_class.env_layer({ "RAILS_MIN_THREADS" => "3" }, cores: 2)).to eq(threads: [3, 4])
      expect(described_class.env_layer({ "RAILS_MIN_THREADS" => "40" }, cores: 2)).to eq(threads: [40, 40])
    end

    it "names the variable whose value is bad" do
      expect { described_class.env_layer({ "RAILS_MAX_THREADS" => "many" }) }
        .to raise_error(Nettyrack::ConfigError, 'invalid $RAILS_MAX_THREADS: "many" is not a whole number (0 or more)')
      expect { described_class.env_layer({ "RAILS_MAX_THREADS" => "2", "RAILS_MIN_THREADS" => "4" }) }
        .to raise_error(Nettyrack::ConfigError, /\Ainvalid \$RAILS_MIN_THREADS\/\$RAILS_MAX_THREADS: the minimum threads \(4\)/)
    end
  end

  describe ".port_layer" do
    it "listens on 0.0.0.0:$PORT" do
      expect(described_class.port_layer({ "PORT" => "5000" })).to eq(binds: [Nettyrack::Bind.tcp("0.0.0.0", 5000)])
    end

    it("is empty without $PORT") { expect(described_class.port_layer({})).to eq({}) }

    it "names $PORT when its value is bad" do
      expect { described_class.port_layer({ "PORT" => "web" }) }
        .to raise_error(Nettyrack::ConfigError, 'invalid $PORT: "web" is not a port (0..65535)')
    end
  end

  describe "the launcher's order" do
    def launcher_config(env:, file:, command_line:)
      described_class.merge(described_class.env_layer(env), file, described_class.port_layer(env), command_line)
    end

    it "puts $PORT over the config file's listeners" do
      config = launcher_config(env: { "PORT" => "5000" }, file: { binds: [Nettyrack::Bind.tcp("127.0.0.1", 3000)] }, command_line: {})
      expect(config.binds).to eq([Nettyrack::Bind.tcp("0.0.0.0", 5000)])
    end

    it "puts -p/-b on the command line over $PORT" do
      config = launcher_config(env: { "PORT" => "5000" }, file: {}, command_line: { binds: [Nettyrack::Bind.tcp("0.0.0.0", 7000)] })
      expect(config.binds).to eq([Nettyrack::Bind.tcp("0.0.0.0", 7000)])
    end

    it "puts the config file over RACK_ENV and RAILS_MAX_THREADS, and the command line over both" do
      env = { "RACK_ENV" => "production", "RAILS_MAX_THREADS" => "5" }
      from_file = launcher_config(env: env, file: { environment: "staging", threads: [2, 10] }, command_line: {})
      from_flags = launcher_config(env: env, file: { environment: "staging" }, command_line: { environment: "test", threads: [1, 3] })
      expect([from_file.environment, from_file.threads, from_flags.environment, from_flags.threads])
        .to eq(["staging", [2, 10], "test", [1, 3]])
    end
  end
end
