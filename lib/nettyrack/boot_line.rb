# frozen_string_literal: true

require_relative "control"
require_relative "jvm_tuning"
require_relative "version"

module Nettyrack
  # The line printed once a server listens, saying what runs where:
  #   nettyrack 0.1.0 (JRuby 10.1.1.0, Java 25, 4 threads) listening on http://0.0.0.0:9292
  # and, when pub/sub goes through Redis, where (the password hidden):
  #   nettyrack 0.1.0 (JRuby 10.1.1.0, Java 25, 4 threads, pub/sub redis://10.0.0.5:6379) listening on ...
  # and whether connections must open with a PROXY protocol header:
  #   nettyrack 0.1.0 (JRuby 10.1.1.0, Java 25, 4 threads, PROXY protocol) listening on ...
  # and, with ssl:// listeners, what does TLS:
  #   nettyrack 0.1.0 (JRuby 10.1.1.0, Java 25, 4 threads, TLS by OpenSSL (BoringSSL)) listening on https://...
  # and, with --tag shop, its name:
  #   nettyrack 0.1.0 [shop] (JRuby 10.1.1.0, ...) listening on ...
  # and, when bin/nettyrack started the JVM with its settings, for how much memory (JvmTuning):
  #   nettyrack 0.1.0 (JRuby 10.1.1.0, Java 25, 4 threads, memory profile small (512 MB container)) listening on ...
  #
  # With a control endpoint, a second line says where (Control.boot_line); #lines gives both,
  # #entries both with what a JSON server log says beside them (ServerLog).
  #
  # Flow: a started server (Lifetime, RackHandler) → here → ServerLog → stdout.
  module BootLine
    # What to print once the server listens. quiet leaves out everything but a control line
    # with a made-up token: nothing else could tell that token.
    # tag: the server's name (--tag), shown after the version.
    def self.lines(server, quiet: false, tag: nil)
      entries(server, quiet: quiet, tag: tag).map(&:first)
    end

    # The same lines as [text, event, fields] for ServerLog#say: the listening line is the
    # boot event (with the URLs and the pid), the control endpoint's the control event.
    def self.entries(server, quiet: false, tag: nil)
      token = server.control_token
      control = Control.boot_line(server.control_url, token) if token && (!quiet || token.generated?)
      boot = [self.for(server, tag: tag), "boot", { urls: server.urls, pid: Process.pid }] unless quiet
      [boot, ([control, "control", {}] if control)].compact
    end

    def self.for(server, tag: nil)
      java = ENV_JAVA["java.specification.version"]
      threads = server.configuration.threads.last
      public_dir = server.configuration[:public_dir]
      profile = JvmTuning.profile
      extras = "#{pubsub(server.pubsub)}#{', PROXY protocol' if server.configuration.proxy_protocol?}" \
               "#{", TLS by #{server.tls_engine}" if server.tls_engine}" \
               "#{", public files from #{public_dir}" if public_dir}" \
               "#{", metrics on #{server.metrics_url}/metrics" if server.metrics_url}" \
               "#{", #{profile}" if profile}"
      "nettyrack #{VERSION}#{" [#{tag}]" if tag} (JRuby #{JRUBY_VERSION}, Java #{java}, #{threads} threads#{extras}) " \
        "listening on #{server.urls.join(', ')}"
    end

    # In-process pub/sub goes unsaid; an engine that spans processes names its URL; a history its limits.
    def self.pubsub(engine)
      history = engine.history if engine.respond_to?(:history)
      "#{", pub/sub #{engine.url}" if engine.respond_to?(:url)}" \
        "#{", push history #{history.messages} messages/#{history.ttl_millis / 1000.0} s" if history&.on}"
    end
    private_class_method :pubsub
  end
end
