# frozen_string_literal: true

require "fileutils"
require "tmpdir"
require "nettyrack/dsl"

RSpec.describe Nettyrack::DSL do
  let(:dir) { Dir.mktmpdir("nettyrack-dsl") }
  after { FileUtils.rm_rf(dir) }

  def load_config(text)
    path = File.join(dir, "nettyrack.rb")
    File.write(path, text)
    described_class.load(path)
  end

  def error_for(text)
    load_config(text)
    raise "no error"
  rescue Nettyrack::ConfigError => e
    e.message.sub(dir, "DIR")
  end

  it("reads an empty file as an empty layer") { expect(load_config("")).to eq({}) }

  it "collects `port` and `bind` listeners in order" do
    expect(load_config(<<~RUBY)).to eq(binds: [Nettyrack::Bind.tcp("0.0.0.0", 3000), Nettyrack::Bind.tcp("127.0.0.1", 3001), Nettyrack::Bind.tcp("::1", 3002)])
      port 3000
      port "3001", "127.0.0.1"
      bind "tcp://[::1]:3002"
    RUBY
  end

  it "reads Puma's `ssl_bind host, port, { options }` as an ssl:// listener" do
    ssl = ->(host, params) { Nettyrack::Bind.new("ssl", host, 9443, nil, params) }
    expect(load_config(<<~RUBY)).to eq(binds: [
      ssl_bind "0.0.0.0", 9443, { cert: "s.pem", key: "s.key", verify_mode: "force_peer", ca: "ca.pem" }
      ssl_bind "::1", "9443", keystore: "s.p12", keystore_pass: "p&w"
    RUBY
      ssl.call("0.0.0.0", { "cert" => "s.pem", "key" => "s.key", "verify_mode" => "force_peer", "ca" => "ca.pem" }),
      ssl.call("::1", { "keystore" => "s.p12", "keystore-pass" => "p&w" })
    ])
    expect(error_for('ssl_bind "0.0.0.0", 9443, cert: "s.pem", ciphers: "x"'))
      .to eq('DIR/nettyrack.rb:1: ssl://0.0.0.0:9443?cert=s.pem&ciphers=x: ssl:// binds take no "ciphers" ' \
             "(known: cert, key, keystore, keystore-pass, verify_mode, ca, alpn)")
  end

  it "reads the pid file, the warm-up (a file or a block), and the restart timeout" do
    File.write(File.join(dir, "warm.txt"), "GET /\n")
    layer = load_config(<<~RUBY)
      pidfile "tmp/pids/server.pid"
      warmup "#{dir}/warm.txt"
      warmup_time "45s"
      warmup_requests 100
      restart_timeout 90
      restart_nice 0
    RUBY
    expect(layer.except(:warmup)).to eq(pidfile: "tmp/pids/server.pid", warmup_time: 45, warmup_requests: 100, restart_timeout: 90,
                                        restart_nice: 0)
    expect(layer[:warmup].map(&:to_s)).to eq(["GET /"])
    block = load_config(<<~RUBY)
      warmup do
        get "/"
        post "/search", "q=shoes"
      end
    RUBY
    expect(block[:warmup].map { |r| [r.to_s, r.body] }).to eq([["GET /", ""], ["POST /search", "q=shoes"]])
    expect(load_config("warmup false")).to eq(warmup: false)
    expect(error_for("\nwarmup do\nend\n")).to eq("DIR/nettyrack.rb:2: the warmup block names no requests")
    expect(error_for("warmup do\n  get 'products'\nend\n"))
      .to eq('DIR/nettyrack.rb:2: warmup: not a request: "GET products" (write METHOD /path [body], such as GET /)')
  end

  it "reads `threads min, max` and `threads max`" do
    expect([load_config("threads 4, 32"), load_config("threads 8")]).to eq([{ threads: [4, 32] }, { threads: [nil, 8] }])
  end

  it "reads environment, rackup, directory and quiet" do
    expect(load_config(<<~RUBY)).to eq(environment: "production", rackup: "app.ru", directory: "/srv/app", quiet: true)
      environment :production
      rackup "app.ru"
      directory "/srv/app"
      quiet
    RUBY
    expect(load_config("quiet false")).to eq(quiet: false)
  end

  it "reads access_log to stdout, to a file, or off" do
    expect([load_config("access_log"), load_config('access_log "log/a.log"'), load_config("access_log false")])
      .to eq([{ access_log: :stdout }, { access_log: "log/a.log" }, { access_log: nil }])
  end

  it "reads proxy_protocol, on by default, or as true/false in words" do
    expect([load_config("proxy_protocol"), load_config("proxy_protocol false"), load_config('proxy_protocol "yes"')])
      .to eq([{ proxy_protocol: true }, { proxy_protocol: false }, { proxy_protocol: true }])
    expect(error_for("proxy_protocol :v1")).to eq('DIR/nettyrack.rb:1: :v1 is not true or false')
  end

  it "reads http2 as true/false, and the HTTP/2 limits" do
    expect([load_config("http2 false"), load_config("http2"), load_config("max_concurrent_streams 10"),
            load_config("http2_max_resets 500"), load_config("http2_reset_window 60")])
      .to eq([{ http2: false }, { http2: true }, { max_concurrent_streams: 10 }, { http2_max_resets: 500 },
              { http2_reset_window: 60 }])
  end

  it "reads the access log format" do
    expect(load_config("access_log_format :json")).to eq(access_log_format: "json")
    expect(error_for("access_log_format 'xml'")).to eq('DIR/nettyrack.rb:1: "xml" is not an access log format (use common or json)')
  end

  it "reads the server's own log format" do
    expect(load_config("log_format :json")).to eq(log_format: "json")
    expect(error_for("log_format 'xml'")).to eq('DIR/nettyrack.rb:1: "xml" is not a log format (use text or json)')
  end

  it "reads the control endpoint's URL and token, or the opt-out from tokens" do
    expect(load_config(<<~RUBY)).to eq(control_url: ["127.0.0.1", 9293], control_token: "s3cret")
      control_url "tcp://127.0.0.1:9293"
      control_token "s3cret"
    RUBY
    expect(load_config("control_url 'tcp://127.0.0.1:9293'\nno_control_token")).to eq(control_url: ["127.0.0.1", 9293], control_token: :none)
    expect(load_config("control_url 'unix:///tmp/ctl'")[:control_url].to_s).to eq("unix:///tmp/ctl")
    expect(error_for("\ncontrol_url 'ssl://h:1'"))
      .to eq("DIR/nettyrack.rb:2: ssl:// control URLs are not supported yet (ssl://h:1); use tcp://HOST:PORT or unix:///PATH")
  end

  it "reads Puma's activate_control_app, its options in braces or as keywords" do
    expect(load_config(%(activate_control_app "tcp://127.0.0.1:9293", { auth_token: "12345" })))
      .to eq(control_url: ["127.0.0.1", 9293], control_token: "12345")
    expect(load_config(%(activate_control_app "tcp://127.0.0.1:9293", no_token: true)))
      .to eq(control_url: ["127.0.0.1", 9293], control_token: :none)
    expect(load_config(%(activate_control_app "tcp://127.0.0.1:9293"))).to eq(control_url: ["127.0.0.1", 9293])
  end

  it "reads pubsub as a Redis URL, or :local for in-process" do
    expect([load_config('pubsub "redis://10.0.0.5:6379/2"'), load_config("pubsub :local")])
      .to eq([{ pubsub: "redis://10.0.0.5:6379/2" }, { pubsub: nil }])
  end

  it "has a method for every limit, taking numbers or strings" do
    layer = load_config(<<~RUBY)
      max_body_size 10 * 1024 * 1024
      max_header_size "32k"
      max_uri_length 4096
      max_headers 50
      body_buffer "1m"
      header_timeout 5
      keep_alive_timeout "500ms"
      write_timeout 1.5
      shutdown_timeout "2m"
      queue_size 10
      io_threads 4
    RUBY
    expect(layer).to eq(
      max_body_size: 10_485_760, max_header_size: 32_768, max_uri_length: 4096, max_headers: 50, body_buffer: 1_048_576,
      header_timeout: 5, keep_alive_timeout: 0.5, write_timeout: 1.5, shutdown_timeout: 120, queue_size: 10, io_threads: 4
    )
  end

  it "runs ordinary Ruby, such as ENV lookups" do
    expect(load_config('port ENV.fetch("NETTYRACK_DSL_SPEC_PORT", "4000").to_i + 1')).to eq(binds: [Nettyrack::Bind.tcp("0.0.0.0", 4001)])
  end

  describe "errors, each naming the file and line" do
    it "lists the settings for an unknown method" do
      expect(error_for("port 3000\nwrokers 4\n"))
        .to start_with("DIR/nettyrack.rb:2: unknown setting `wrokers' (the settings are: access_log, access_log_format, " \
                       "activate_control_app, bind, body_buffer,")
      expect(error_for("port 3000\nwrokers 4\n")).to end_with("; and Puma's, see docs/puma.md)")
      expect(error_for("preload_app\n")).to start_with("DIR/nettyrack.rb:1: unknown setting `preload_app' ")
    end

    it "catches a misspelled setting without arguments" do
      expect(error_for("\n\nquite\n")).to start_with("DIR/nettyrack.rb:3: unknown setting `quite'")
    end

    it "says what is wrong with a value" do
      expect(error_for("max_body_size '10x'")).to eq('DIR/nettyrack.rb:1: "10x" is not a size (use bytes, or 64k, 10m, 1g)')
      expect(error_for("\nbind 'unix:///tmp/s?backlog=0'"))
        .to eq('DIR/nettyrack.rb:2: unix:///tmp/s?backlog=0: backlog must be a count of 1..65535, got "0"')
      expect(error_for("port 1\npubsub 'redis://h:0'")).to eq('DIR/nettyrack.rb:2: "redis://h:0" is not a Redis URL (port 0 is not in 1..65535)')
    end

    it "reports a wrong number of arguments" do
      expect(error_for("threads")).to eq("DIR/nettyrack.rb:1: wrong number of arguments (given 0, expected 1..2) (ArgumentError)")
    end

    it "reports an exception the file raises" do
      expect(error_for("port 1\nraise 'no database'")).to eq("DIR/nettyrack.rb:2: no database (RuntimeError)")
    end

    it "reports a syntax error" do
      expect(error_for("port 3000\nthreads(4,\n")).to match(%r{\Asyntax error in DIR/nettyrack.rb:\d: \S})
    end

    it "reports a missing file" do
      expect { described_class.load(File.join(dir, "none.rb")) }
        .to raise_error(Nettyrack::ConfigError, "cannot read config file #{dir}/none.rb: No such file or directory")
    end
  end
end
