# frozen_string_literal: true

require "stringio"
require "nettyrack/pubsub_setting"

RSpec.describe Nettyrack::PubSubSetting do
  def error(value, env = {})
    described_class.setting(value, env)
    raise "no error"
  rescue Nettyrack::ConfigError => e
    e.message
  end

  describe ".setting" do
    it "keeps pub/sub in-process for nil, false and local" do
      expect([nil, false, "local", :local].map { |value| described_class.setting(value, {}) }).to eq([nil] * 4)
    end

    it "takes redis:// and rediss:// URLs as they are" do
      urls = %w[redis://127.0.0.1 redis://redis.internal:6380/3 redis://:s3cret@h:1/ redis://app:pw@[::1]:7000
                rediss://h:6390]
      expect(urls.map { |url| described_class.setting(url, {}) }).to eq(urls)
    end

    it "takes redis-sentinel:// URLs as they are: sentinels, a master name, a database" do
      urls = %w[redis-sentinel://10.0.0.1/mymaster redis-sentinel://:pw@s1:26379,s2:26380,[::1]:26381/cache/2]
      expect(urls.map { |url| described_class.setting(url, {}) }).to eq(urls)
    end

    it "names the shape a redis-sentinel:// URL must have" do
      shape = "(use redis-sentinel://[:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]/MASTER-NAME[/DB])"
      %w[redis-sentinel://s1:26379 redis-sentinel://s1,,s2/m redis-sentinel://s1/m/db redis-sentinel://s1:port/m].each do |url|
        expect(error(url)).to eq(%("#{url}" is not a Redis Sentinel URL #{shape}))
      end
    end

    it "takes redis-cluster:// URLs as they are: seed nodes, a password" do
      urls = %w[redis-cluster://10.0.0.1 redis-cluster://:pw@n1:7000,n2:7001,[::1]:7002]
      expect(urls.map { |url| described_class.setting(url, {}) }).to eq(urls)
    end

    it "names the shape a redis-cluster:// URL must have" do
      shape = "(use redis-cluster://[:PASSWORD@]HOST[:PORT][,HOST[:PORT]...])"
      %w[redis-cluster:// redis-cluster://n1:7000/0 redis-cluster://n1,,n2 redis-cluster://n1:port
         redis-cluster://n1?x=1].each do |url|
        expect(error(url)).to eq(%("#{url}" is not a Redis Cluster URL #{shape}))
      end
    end

    it "reads $REDIS_URL for redis alone" do
      env = { "REDIS_URL" => "redis://cache:6379/1" }
      expect([described_class.setting("redis", env), described_class.setting(:redis, env)])
        .to eq(["redis://cache:6379/1", "redis://cache:6379/1"])
    end

    it "says what to do when $REDIS_URL is unset or bad" do
      expect(error("redis", {})).to eq("$REDIS_URL is not set (set it, or give the URL: redis://HOST:PORT)")
      expect(error("redis", { "REDIS_URL" => " " })).to start_with("$REDIS_URL is not set")
      expect(error("redis", { "REDIS_URL" => "redis://h:0" }))
        .to eq('invalid $REDIS_URL: "redis://h:0" is not a Redis URL (port 0 is not in 1..65535)')
    end

    it "names what is wrong with a URL" do
      expect(error("memcached://h")).to eq('"memcached://h" is not a pub/sub engine (use local, redis for ' \
                                           "$REDIS_URL, redis://[:PASSWORD@]HOST[:PORT][/DB] (rediss:// for TLS), " \
                                           "redis-sentinel://[:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]/MASTER-NAME[/DB], " \
                                           "or redis-cluster://[:PASSWORD@]HOST[:PORT][,HOST[:PORT]...])")
      expect(error("127.0.0.1:6379")).to start_with('"127.0.0.1:6379" is not a pub/sub engine')
      expect(error("redis://h:70000")).to eq('"redis://h:70000" is not a Redis URL (port 70000 is not in 1..65535)')
      expect(error("redis://h:port")).to eq('"redis://h:port" is not a Redis URL (use redis://[:PASSWORD@]HOST[:PORT][/DB])')
      expect(error("redis://")).to eq('"redis://" is not a Redis URL (no host)')
      expect(error("redis://h/cache")).to eq('"redis://h/cache" is not a Redis URL (the path must be a database number, like /0)')
      expect(error("redis://h?db=1")).to eq('"redis://h?db=1" is not a Redis URL (no ?query or #fragment allowed)')
    end
  end

  describe ".engine" do
    it("is nil for in-process pub/sub") { expect(described_class.engine(nil)).to be_nil }

    it "keeps a history in-process when asked, and refuses limits that make none" do
      engine = described_class.engine(nil, history: { messages: 5, ttl: 1.5, channels: 9 })
      expect(engine).to be_a(Java::OrgNettyrackCorePush::LocalPubSub)
      expect([engine.history.messages, engine.history.ttl_millis, engine.history.channels]).to eq([5, 1500, 9])
      expect { described_class.engine(nil, history: { messages: 5, ttl: 0, channels: 9 }) }
        .to raise_error(Nettyrack::ConfigError, "push history time must be at least 1 ms, got 0")
      expect { described_class.engine(nil, history: { messages: 5, ttl: 60, channels: 0 }) }
        .to raise_error(Nettyrack::ConfigError, "push history channels must be at least 1, got 0")
      expect { described_class.engine(nil, history: { messages: 99_999_999_999, ttl: 60, channels: 9 }) }
        .to raise_error(Nettyrack::ConfigError, "push history keeps at most 1000000 messages a channel, got 99999999999")
    end

    it "starts a Redis engine that logs to the error stream, without waiting for Redis" do
      errors = StringIO.new
      port = TCPServer.open("127.0.0.1", 0) { |server| server.addr[1] } # nobody listens there now
      engine = described_class.engine("redis://127.0.0.1:#{port}", errors: errors)
      expect(engine).to be_a(Java::OrgNettyrackCorePush::PubSub)
      expect(engine.publish("c", "queued".to_java_bytes)).to be_nil
      limit = Deadline.now + 20
      IO.select(nil, nil, nil, 0.02) while errors.string.empty? && Deadline.now < limit
      expect(errors.string).to match(%r{\Anettyrack: pubsub: cannot reach Redis at redis://127\.0\.0\.1:#{port} \(.+\); retrying\n\z})
    ensure
      engine&.close
    end
  end

  describe ".engine for redis-cluster://" do
    it "starts the Cluster engine, which says in one line that no seed node answers" do
      errors = StringIO.new
      port = TCPServer.open("127.0.0.1", 0) { |server| server.addr[1] } # nobody listens there now
      engine = described_class.engine("redis-cluster://127.0.0.1:#{port}", errors: errors)
      expect(engine).to be_a(Java::OrgNettyrackRedis::ClusterPubSub)
      expect(engine.state.engine).to eq("redis-cluster")
      limit = Deadline.now + 20
      IO.select(nil, nil, nil, 0.02) while errors.string.empty? && Deadline.now < limit
      expect(errors.string.lines.size).to eq(1)
      expect(errors.string).to start_with("nettyrack: pubsub: cannot reach Redis at redis-cluster://127.0.0.1:#{port} " \
                                          "(no node gave the cluster's slots (127.0.0.1:#{port}: ")
      expect(errors.string).to end_with("); retrying\n")
    ensure
      engine&.close
    end

    it "turns what the engine finds wrong past the shape into one ConfigError line" do
      expect { described_class.engine("redis-cluster://n1:0") }
        .to raise_error(Nettyrack::ConfigError, '"redis-cluster://n1:0" is not a Redis Cluster URL (port 0 is not in 1..65535)')
    end
  end

  describe ".serving" do
    let(:nowhere) { "redis://127.0.0.1:#{TCPServer.open('127.0.0.1', 0) { |server| server.addr[1] }}" }

    def engine_threads
      Java::JavaLang::Thread.getAllStackTraces.keySet.select { |t| t.alive? && t.name.start_with?("nettyrack-pubsub-") }
    end

    it "makes the engine the process's inside the block, then restores the old one and closes the engine" do
      before = Nettyrack.pubsub
      inside = nil
      result = described_class.serving(nowhere, errors: StringIO.new) do
        inside = Nettyrack.pubsub
        :done
      end
      expect(result).to eq(:done)
      expect(inside).to be_a(Java::OrgNettyrackRedis::RedisPubSub)
      expect(Nettyrack.pubsub).to be(before)
      expect(engine_threads).to be_empty
    end

    it "restores and closes when the block raises, and leaves in-process pub/sub alone" do
      before = Nettyrack.pubsub
      inside = nil
      expect do
        described_class.serving(nowhere, errors: StringIO.new) do
          inside = Nettyrack.pubsub
          raise "boom"
        end
      end.to raise_error(RuntimeError, "boom")
      expect(inside).to be_a(Java::OrgNettyrackRedis::RedisPubSub)
      expect(Nettyrack.pubsub).to be(before)
      expect(engine_threads).to be_empty
      expect(described_class.serving(nil) { Nettyrack.pubsub }).to be(before)
    end
  end
end
