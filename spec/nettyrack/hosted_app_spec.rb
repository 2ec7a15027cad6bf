# frozen_string_literal: true

require "tmpdir"
require "fileutils"
require "rack"
require "nettyrack"
require "nettyrack/hosted_app"

RSpec.describe Nettyrack::HostedApp do
  around do |example|
    pwd = Dir.pwd
    pubsub = Nettyrack.pubsub # a boot with a push history puts its engine there
    Dir.mktmpdir do |root|
      @root = root
      FileUtils.mkdir_p(File.join(root, "WEB-INF"))
      example.run
    end
  ensure
    Dir.chdir(pwd)
    Nettyrack.pubsub = pubsub
  end

  let(:log) do
    lines = []
    def lines.accept(line) = push(line)
    lines
  end

  def write(path, text)
    FileUtils.mkdir_p(File.dirname(File.join(@root, path)))
    File.write(File.join(@root, path), text)
  end

  def boot(params = {})
    described_class.boot(params, @root, log)
  end

  def call(app, path = "/")
    _status, _headers, body = app.call(Rack::MockRequest.env_for(path))
    body.to_enum(:each).to_a.join
  end

  it "loads WEB-INF/config.ru and runs in WEB-INF, as jruby-rack does" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, [Dir.pwd]] }\n")
    app, = boot
    expect(call(app)).to eq(File.realpath(File.join(@root, "WEB-INF")))
  end

  it "takes rackup.path and app.root relative to the web app's root" do
    FileUtils.mkdir_p(File.join(@root, "app"))
    write("conf/other.ru", "run ->(env) { [200, {}, ['other']] }\n")
    app, = boot("rackup.path" => "/conf/other.ru", "app.root" => "/app")
    expect([call(app), Dir.pwd]).to eq(["other", File.realpath(File.join(@root, "app"))])
  end

  it "prefers an inline rackup param to the file" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, ['file']] }\n")
    app, = boot("rackup" => "run ->(env) { [200, {}, ['inline']] }")
    expect(call(app)).to eq("inline")
  end

  it "turns our limits, by their CLI names, into the ServerConfig" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    _app, config = boot("max-body-size" => "64k", "body-buffer" => "1k", "max-push-queue" => "2m", "max-discard-size" => "1m")
    expect([config.limits.maxBodySize, config.limits.bodyBufferSize, config.push.maxPushQueue, config.limits.maxDiscardSize])
      .to eq([64 * 1024, 1024, 2 * 1024 * 1024, 1024 * 1024])
  end

  it "takes threads, the CLI's MIN:MAX or MAX, as how many requests run the app at once" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    _app, config = boot("threads" => "2:3")
    expect([config.workers.minThreads, config.workers.maxThreads]).to eq([2, 3])
  end

  it "runs as many requests at once as the CLI would by default, or RAILS_MAX_THREADS" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    default_max = Nettyrack::Configuration.default_threads(Etc.nprocessors).last
    rails_max = ENV.fetch("RAILS_MAX_THREADS", nil)
    maxes = [nil, "7"].map do |value|
      ENV["RAILS_MAX_THREADS"] = value
      boot[1].workers.maxThreads
    end
    expect(maxes).to eq([default_max, 7])
  ensure
    ENV["RAILS_MAX_THREADS"] = rails_max
  end

  it "names a bad thread count" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    expect { boot("threads" => "0") }
      .to raise_error(Nettyrack::ConfigError, /\Ainvalid threads: 0 is not a thread count/)
  end

  it "logs the limits a container sets itself as ignored" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    boot("write-timeout" => "5", "max-header-size" => "8k")
    expect(log).to eq(["write-timeout=5 ignored: in a servlet container the container's own settings apply"])
  end

  it "applies every setting its SETTINGS row marks servlet, and logs each other limit given as ignored" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    others = Nettyrack::Settings::BUILDER.reject(&:servlet).to_h { |row| [row.flag.delete_prefix("--"), row.shown_default] }
    _app, config = boot(others.merge("queue-size" => "7", "push-timeout" => "500ms", "wait-threads" => "3"))
    expect([config.workers.queueSize, config.push.pushTimeoutMillis, config.workers.waitThreads]).to eq([7, 500, 3])
    expect(log).to eq(others.map { |name, value| "#{name}=#{value} ignored: in a servlet container the container's own settings apply" })
    expect(others.keys).to include("write-timeout", "keep-alive-timeout", "io-threads")
  end

  it "applies the settings docs/war.md lists as context params, no more (pubsub picks the engine)" do
    table = File.read(File.expand_path("../../docs/war.md", __dir__)).lines.grep(/\A\| `/)
    listed = table.flat_map { |line| line.split("|")[1].scan(/`([\w.-]+)`/).flatten }
    flags = Nettyrack::SETTINGS.select(&:flag).to_h { |row| [row.flag.delete_prefix("--"), row] }
    engine = ["pubsub", *Nettyrack::RackOptions::HISTORY_ROWS.map { |row| row.flag.delete_prefix("--") }]
    expect(listed.select { |name| flags.key?(name) } - engine).to match_array(Nettyrack::Settings::SERVLET.map { |row| row.flag.delete_prefix("--") })
    expect(listed).to include(*engine)
  end

  it "names a bad limit" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    expect { boot("max-body-size" => "lots") }
      .to raise_error(Nettyrack::ConfigError, /\Ainvalid max-body-size: "lots" is not a size/)
  end

  it "keeps pub/sub in-process without a pubsub param, and hands the door Nettyrack.pubsub" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    _app, _config, pubsub = boot("pubsub" => "local")
    expect(pubsub).to be(Nettyrack.pubsub)
    expect(pubsub).to be_a(Java::OrgNettyrackCorePush::LocalPubSub)
  end

  it "keeps a push history from the push-history params, and names a bad one" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    _app, _config, pubsub = boot("push-history" => "5", "push-history-ttl" => "2m")
    expect([pubsub.history.messages, pubsub.history.ttl_millis, pubsub.history.channels]).to eq([5, 120_000, 10_000])
    expect { boot("push-history" => "lots") }
      .to raise_error(Nettyrack::ConfigError, /\Ainvalid push history param: "lots" is not a whole number/)
  end

  it "names a bad pubsub param, with the CLI's words" do
    write("WEB-INF/config.ru", "run ->(env) { [200, {}, []] }\n")
    expect { boot("pubsub" => "memcached://x") }
      .to raise_error(Nettyrack::ConfigError, /\Ainvalid pubsub: "memcached:\/\/x" is not a pub\/sub engine/)
  end

  it "fails in one line without a config.ru" do
    expect { boot }.to raise_error(Nettyrack::BootError, %r{\Ano such file: .*/WEB-INF/config\.ru})
  end

  it "fails in one line on a syntax error in the inline rackup" do
    expect { boot("rackup" => "run lambda {") }.to raise_error(Nettyrack::BootError, /\Asyntax error/)
  end

  it "fails when app.root is not a directory" do
    expect { boot("app.root" => "/nowhere") }.to raise_error(Nettyrack::BootError, /app.root .*nowhere is not a directory/)
  end
end
