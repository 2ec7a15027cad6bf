# frozen_string_literal: true

require_relative "coerce"

module Nettyrack
  # One row per server limit or timeout, read by everything that names one: the CLI (flag and
  # help text), the config DSL (method), the Rack handler (-O option), Server.new (keyword) and
  # JavaConfig (the ServerConfig::Builder method it fills). The default values live in
  # Configuration::DEFAULTS.
  #
  # kind says how a value is read (a Coerce method) and sent to Java: :size and :count as
  # Integers, :seconds as Integer milliseconds.
  Limit = Struct.new(:name, :kind, :builder_method, :help) do
    def flag
      "--#{name.to_s.tr('_', '-')}"
    end

    def metavar
      { size: "BYTES", count: "N", seconds: "SECONDS" }.fetch(kind)
    end

    def coerce(value)
      Coerce.public_send(kind, value)
    end

    def to_java(value)
      kind == :seconds ? (value * 1000).round : value
    end
  end

  LIMITS = [
    Limit.new(:max_body_size, :size, :maxBodySize, "largest request body; 413 beyond"),
    Limit.new(:max_header_size, :size, :maxHeaderSize, "largest request header block; 431 beyond"),
    Limit.new(:max_uri_length, :size, :maxUriLength, "longest request line; 414 beyond"),
    Limit.new(:max_headers, :count, :maxHeaders, "most request header fields; 431 beyond"),
    Limit.new(:max_chunk_extensions, :size, :maxChunkExtensions,
              "chunk-extension bytes a chunked body may send beyond its data (1/4 per chunk); 400 beyond"),
    Limit.new(:max_concurrent_streams, :count, :maxConcurrentStreams,
              "HTTP/2 streams one connection may have open at once; refused beyond"),
    Limit.new(:http2_initial_window, :size, :http2InitialWindow,
              "HTTP/2 request body bytes a stream may send ahead of the server reading them"),
    Limit.new(:http2_max_resets, :count, :http2MaxResets,
              "HTTP/2 RST_STREAMs per window, from the client or caused by it; GOAWAY beyond"),
    Limit.new(:http2_reset_window, :seconds, :http2ResetWindowMillis,
              "the window http2_max_resets counts in (whole seconds)"),
    Limit.new(:body_buffer, :size, :bodyBufferSize, "body bytes kept in memory; more go to a temp file"),
    Limit.new(:header_timeout, :seconds, :headerTimeoutMillis, "time a client gets to send a request head"),
    Limit.new(:body_timeout, :seconds, :bodyTimeoutMillis, "time a request body gets after its head; 408 beyond"),
    Limit.new(:body_min_rate, :size, :bodyMinRate, "body bytes per second that earn a slow upload 1 s more; 0: none"),
    Limit.new(:keep_alive_timeout, :seconds, :keepAliveTimeoutMillis, "time an idle connection stays open"),
    Limit.new(:write_timeout, :seconds, :writeTimeoutMillis, "time a write waits on a client not reading"),
    Limit.new(:shutdown_timeout, :seconds, :shutdownTimeoutMillis, "time requests get to finish on stop"),
    Limit.new(:queue_size, :count, :queueSize, "requests waiting for a thread; 503 beyond"),
    Limit.new(:max_connections, :count, :maxConnections,
              "open connections at which accepting pauses; 0: the open-file limit less 1024"),
    Limit.new(:io_threads, :count, :ioThreads, "Netty event-loop threads; 0: one per core"),
    Limit.new(:file_cache, :seconds, :fileCacheMillis,
              "how long a --public file's stat (a small file's bytes too) is reused; 0: every request"),
    Limit.new(:file_cache_entries, :count, :fileCacheEntries, "paths under --public that file_cache keeps at once"),
    Limit.new(:worker_nice, :count, :workerNice,
              "nice value of the worker threads (0-19): the JIT compiles first while warming up; 0: off"),
    Limit.new(:max_message_size, :size, :maxMessageSize, "largest WebSocket message received; closed with 1009 beyond"),
    Limit.new(:max_push_queue, :size, :maxPushQueue, "bytes queued for a slow push client; closed with 1008 beyond"),
    Limit.new(:push_timeout, :seconds, :pushTimeoutMillis,
              "push idle time before a ping (SSE: a comment); silent WebSockets closed after 2x"),
    Limit.new(:control_timeout, :seconds, :controlTimeoutMillis,
              "time /thread-backtraces waits for a worker to read Ruby backtraces")
  ].freeze

  LIMITS_BY_NAME = LIMITS.to_h { |limit| [limit.name, limit] }.freeze
  LIMIT_NAMES = LIMITS_BY_NAME.keys.freeze
end
