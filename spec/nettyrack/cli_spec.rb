# frozen_string_literal: true

require "tmpdir"
require "nettyrack/cli"

RSpec.describe Nettyrack::CLI do
  def parse(*argv)
    described_class.new(cores: 2).parse(argv)
  end

  def settings(*argv)
    parse(*argv).settings
  end

  def error(*argv)
    parse(*argv)
    raise "no error"
  rescue Nettyrack::ConfigError => e
    e.message
  end

  it "gives an empty layer, no config file and :run for no arguments" do
    cli = parse
    expect([cli.settings, cli.config_file, cli.action]).to eq([{}, nil, :run])
  end

  it("takes the rackup file as its argument") { expect(settings("app.ru")).to eq(rackup: "app.ru") }

  it("refuses two rackup files") { expect(error("a.ru", "b.ru")).to eq("one rackup file at most, got: a.ru b.ru") }

  describe "listening" do
    it "listens on 0.0.0.0 with -p and --port" do
      expect([settings("-p", "3000"), settings("--port=0")]).to eq([{ binds: [Nettyrack::Bind.tcp("0.0.0.0", 3000)] }, { binds: [Nettyrack::Bind.tcp("0.0.0.0", 0)] }])
    end

    it "collects every -b and -p, in order" do
      expect(settings("-b", "tcp://127.0.0.1:1", "--bind", "tcp://[::1]:2", "-p", "3"))
        .to eq(binds: [Nettyrack::Bind.tcp("127.0.0.1", 1), Nettyrack::Bind.tcp("::1", 2), Nettyrack::Bind.tcp("0.0.0.0", 3)])
    end

    it "expects a PROXY protocol header with --proxy-protocol; --no-proxy-protocol overrides a config file" do
      expect([settings("--proxy-protocol"), settings("--no-proxy-protocol"), settings("--proxy-protocol", "app.ru")])
        .to eq([{ proxy_protocol: true }, { proxy_protocol: false }, { proxy_protocol: true, rackup: "app.ru" }])
    end

    it "serves h2c unless --no-http2; --http2 overrides a config file" do
      expect([settings("--no-http2"), settings("--http2")]).to eq([{ http2: false }, { http2: true }])
    end

    it("names the flag of a bad port") { expect(error("-p", "http")).to eq('invalid --port: "http" is not a port (0..65535)') }

    it "listens on a unix socket with -b unix:///path, and names the flag of a bad param" do
      expect(settings("-b", "unix:///tmp/app.sock?mode=0660")[:binds].map(&:to_s)).to eq(["unix:///tmp/app.sock?mode=0660"])
      expect(error("-b", "unix:///tmp/app.sock?mode=999"))
        .to eq('invalid --bind: unix:///tmp/app.sock?mode=999: mode must be octal permissions such as 0660, got "999"')
    end
  end

  describe "running" do
    it "reads -t MIN:MAX and -t MAX" do
      expect([settings("-t", "4:32"), settings("--threads", "8")]).to eq([{ threads: [4, 32] }, { threads: [nil, 8] }])
    end

    it "names the flag of bad threads" do
      expect(error("-t", "32:4")).to eq("invalid --threads: the minimum threads (32) exceed the maximum (4)")
    end

    it "sets the environment, directory, quiet and config file" do
      cli = parse("-e", "production", "--dir", "/srv/app", "-q", "-C", "config/nettyrack.rb")
      expect([cli.settings, cli.config_file])
        .to eq([{ environment: "production", directory: "/srv/app", quiet: true }, "config/nettyrack.rb"])
    end

    it "logs access to stdout with a bare --access-log, or to a file" do
      expect([settings("--access-log"), settings("--access-log=-"), settings("--access-log=log/access.log")])
        .to eq([{ access_log: :stdout }, { access_log: :stdout }, { access_log: "log/access.log" }])
    end

    it "does not take the rackup file for the access log's FILE" do
      expect(settings("--access-log", "app.ru")).to eq(access_log: :stdout, rackup: "app.ru")
    end

    it "takes a Redis URL for --pubsub, $REDIS_URL for `redis`, and nil (in-process) for `local`" do
      cli = described_class.new(cores: 2, env: { "REDIS_URL" => "redis://cache:6380/1" })
      expect([settings("--pubsub", "redis://10.0.0.5"), cli.parse(%w[--pubsub redis]).settings, settings("--pubsub=local")])
        .to eq([{ pubsub: "redis://10.0.0.5" }, { pubsub: "redis://cache:6380/1" }, { pubsub: nil }])
    end

    it "names --pubsub in its errors" do
      cli = described_class.new(cores: 2, env: {})
      expect { cli.parse(%w[--pubsub redis]) }
        .to raise_error(Nettyrack::ConfigError, "invalid --pubsub: $REDIS_URL is not set (set it, or give the URL: redis://HOST:PORT)")
      expect(error("--pubsub", "redis://h:99999"))
        .to eq('invalid --pubsub: "redis://h:99999" is not a Redis URL (port 99999 is not in 1..65535)')
      expect(error("--pubsub", "nats://h")).to start_with('invalid --pubsub: "nats://h" is not a pub/sub engine (use local, redis')
    end
  end

  describe "limits" do
    it "gives every limit a help text OptionParser reads as text (a line starting with - would be one more switch)" do
      expect(Nettyrack::Settings::BUILDER.map(&:help).grep(/\A-/)).to be_empty
    end

    it "has a flag for every limit, reading sizes and durations" do
      argv = %w[--max-body-size 10m --max-header-size 32k --max-uri-length 4096 --max-headers 50
                --max-chunk-extensions 8k --body-buffer 1m --body-timeout 10 --body-min-rate 4k
                --header-timeout 5 --keep-alive-timeout 500ms --write-timeout 1.5 --shutdown-timeout 2m
                --queue-size 10 --max-connections 500 --io-threads 4 --max-message-size 64k --max-push-queue 2m --push-send-buffer 16k --push-timeout 30
                --control-timeout 500ms --max-concurrent-streams 8 --http2-initial-window 1m
                --http2-max-resets 50 --http2-reset-window 10 --worker-nice 0 --file-cache 250ms
                --file-cache-entries 64 --max-discard-size 2m --wait-threads 6]
      expect(settings(*argv)).to eq(
        max_body_size: 10 * 1024 * 1024, max_header_size: 32 * 1024, max_uri_length: 4096, max_headers: 50,
        max_chunk_extensions: 8 * 1024, body_buffer: 1024 * 1024, body_timeout: 10, body_min_rate: 4096,
        header_timeout: 5, keep_alive_timeout: 0.5, write_timeout: 1.5,
        shutdown_timeout: 120, queue_size: 10, max_connections: 500, io_threads: 4, max_message_size: 64 * 1024,
        max_push_queue: 2 * 1024 * 1024, push_send_buffer: 16 * 1024, push_timeout: 30, control_timeout: 0.5,
        max_concurrent_streams: 8, http2_initial_window: 1024 * 1024, http2_max_resets: 50, http2_reset_window: 10,
        worker_nice: 0, file_cache: 0.25, file_cache_entries: 64, max_discard_size: 2 * 1024 * 1024, wait_threads: 6
      )
      expect(settings(*argv).keys).to match_array(Nettyrack::Settings::BUILDER_NAMES)
    end

    it "names the flag of a bad value" do
      expect(error("--max-body-size", "lots")).to eq('invalid --max-body-size: "lots" is not a size (use bytes, or 64k, 10m, 1g)')
      expect(error("--header-timeout", "1h")).to eq('invalid --header-timeout: "1h" is not a duration (use seconds, or 500ms, 30s, 2m)')
      expect(error("--queue-size", "-1")).to eq('invalid --queue-size: "-1" is not a whole number (0 or more)')
    end
  end

  describe "operations" do
    it "reads the control endpoint's URL and token, or the opt-out from tokens" do
      expect(settings("--control-url", "tcp://127.0.0.1:9293", "--control-token", "s3cret"))
        .to eq(control_url: ["127.0.0.1", 9293], control_token: "s3cret")
      expect(settings("--control-url", "tcp://[::1]:0", "--no-control-token")).to eq(control_url: ["::1", 0], control_token: :none)
    end

    it "refuses control URLs it cannot serve yet, and empty tokens" do
      expect(error("--control-url", "ssl://127.0.0.1:1"))
        .to eq("invalid --control-url: ssl:// control URLs are not supported yet (ssl://127.0.0.1:1); use tcp://HOST:PORT or unix:///PATH")
      expect(error("--control-url", "9293")).to eq('invalid --control-url: "9293" is not a control URL (use tcp://HOST:PORT or unix:///PATH)')
      expect(error("--control-url", "tcp://127.0.0.1:99999")).to eq('invalid --control-url: "99999" is not a port (0..65535)')
      expect(error("--control-token", " ")).to start_with("invalid --control-token: the control token must not be empty")
    end

    it "reads the access log format" do
      expect(settings("--access-log-format", "JSON")).to eq(access_log_format: "json")
      expect(error("--access-log-format", "xml"))
        .to eq('invalid --access-log-format: "xml" is not an access log format (use common or json)')
    end

    it "reads the server's own log format" do
      expect(settings("--log-format", "JSON")).to eq(log_format: "json")
      expect(error("--log-format", "xml")).to eq('invalid --log-format: "xml" is not a log format (use text or json)')
    end
  end

  describe "restarts" do
    it "reads the pid file, the warm-up and the restart timeout" do
      Dir.mktmpdir do |dir|
        File.write(File.join(dir, "warm.txt"), "GET /\nGET /a\n")
        layer = settings("--pidfile", "tmp/server.pid", "--warmup", File.join(dir, "warm.txt"), "--warmup-time", "45s",
                         "--warmup-requests", "5000", "--restart-timeout", "3m", "--restart-nice", "5")
        expect(layer.except(:warmup)).to eq(pidfile: "tmp/server.pid", warmup_time: 45, warmup_requests: 5000, restart_timeout: 180,
                                            restart_nice: 5)
        expect(layer[:warmup].map(&:to_s)).to eq(["GET /", "GET /a"])
      end
      expect(settings("--no-warmup")).to eq(warmup: false)
      expect(settings("--warmup", "recent", "--warmup-sample", "200")).to eq(warmup: :recent, warmup_sample: 200)
      expect(settings("--warmup-sample", "1")).to eq(warmup_sample: 1)
    end

    it "reads how restarts go and how a reload's canary judges" do
      expect(settings("--restart-with", "reload", "--reload-canary", "30s", "--reload-errors", "2.5"))
        .to eq(restart_with: :reload, reload_canary: 30, reload_errors: 2.5)
      expect(settings("--restart-with", "process", "--reload-canary", "0", "--reload-errors", "0%"))
        .to eq(restart_with: :process, reload_canary: 0, reload_errors: 0.0)
      expect(error("--restart-with", "fork")).to eq('invalid --restart-with: unknown restart way "fork" (use process, a hot ' \
                                                     "restart, or reload, the app reloaded in this JVM)")
      expect(error("--reload-errors", "150")).to eq('invalid --reload-errors: "150" is not a share of answers in percent (0 to 100)')
      expect(error("--reload-canary", "soon")).to start_with('invalid --reload-canary: "soon" is not a duration')
    end

    it "takes a restart nice value from 0 to 19, and no other" do
      expect(settings("--restart-nice", "0")).to eq(restart_nice: 0)
      expect(settings("--restart-nice", "19")).to eq(restart_nice: 19)
      expect(error("--restart-nice", "-1")).to start_with("invalid --restart-nice: ")
    end

    it "says what is wrong with them in one line" do
      expect(error("--warmup", "/none/warm.txt"))
        .to eq("invalid --warmup: cannot read warm-up file /none/warm.txt: No such file or directory")
      expect(error("--warmup-time", "0")).to eq("invalid --warmup-time: a warm-up needs more than 0 s (turn it off with --no-warmup)")
      expect(error("--warmup-sample", "0")).to eq("invalid --warmup-sample: a warm-up sample holds 1 request or more, got 0")
      expect(error("--restart-timeout", "soon")).to start_with('invalid --restart-timeout: "soon" is not a duration')
      expect(error("--pidfile", " ")).to eq("invalid --pidfile: the pid file needs a path")
      expect(error("--restart-nice", "20")).to eq('invalid --restart-nice: "20" is not a nice value to add (0 to 19)')
    end
  end

  describe "mistakes" do
    it "points to --help for an unknown flag" do
      expect(error("--zzz", "2")).to eq("invalid option: --zzz (see nettyrack --help)")
    end
    it "takes Puma's cluster flags, and keeps a line for boot saying why they do not apply" do
      lines = Nettyrack::CLI.new.parse(%w[-w 2 --preload --fork-worker --prune-bundler -p 3000]).settings[:not_applied]
      expect(lines).to eq([
        "nettyrack: `--workers 2' (command line): not applied: #{Nettyrack::PumaAnswers::FORKING}",
        "nettyrack: `--preload' (command line): not applied: #{Nettyrack::PumaAnswers::WHY[:preload_app!]}",
        "nettyrack: `--fork-worker' (command line): not applied: #{Nettyrack::PumaAnswers::FORKING}",
        "nettyrack: `--prune-bundler' (command line): not applied: #{Nettyrack::PumaAnswers::WHY[:prune_bundler]}"
      ])
      expect(Nettyrack::CLI.new.parse(%w[--workers=4]).settings[:not_applied].first).to start_with("nettyrack: `--workers 4'")
    end
    it("points to --help for a missing value") { expect(error("-p")).to eq("missing argument: -p (see nettyrack --help)") }
  end

  describe "help and version" do
    it("asks for the version with -v and --version") { expect([parse("-v").action, parse("--version").action]).to eq(%i[version version]) }
    it("asks for help with -h and --help") { expect([parse("-h").action, parse("--help").action]).to eq(%i[help help]) }

    it "documents every flag with its default" do
      help = described_class.new(cores: 2).help
      flags = %w[--port --bind --[no-]proxy-protocol --threads --environment --config --dir --quiet --access-log
                 --access-log-format --pubsub --control-url --control-token --no-control-token --version --help
                 --public --public-cache-control --[no-]public-dotfiles --[no-]sendfile --[no-]early-hints
                 --pidfile --warmup --no-warmup --warmup-time --warmup-requests --warmup-sample --restart-timeout
                 --restart-nice]
      expect(flags + Nettyrack::Settings::BUILDER.map(&:flag)).to all(satisfy { |flag| help.include?(flag) })
      expect(help).to include("(default 9292)", "--max-body-size BYTES", "(default 100m)", "(default 16k)", "(default 30s)")
    end

    it "documents the port precedence and the thread defaults" do
      help = described_class.new(cores: 4).help
      expect(help).to include("then $PORT", "`-p`/`-b` win over $PORT", "$RAILS_MAX_THREADS", "max(4, 2 x cores): 4:8",
                              "`nettyrack war [APP_DIR]` packages the app as a WAR")
    end
  end
end
