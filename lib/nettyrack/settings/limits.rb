# frozen_string_literal: true

require_relative "../setting"

module Nettyrack
  # SETTINGS rows (settings.rb) that ServerConfig.Builder takes one value each (the builder
  # method named last but one): the limits and timeouts a client meets, and the tuning of the
  # server itself. Each is a flag (--max-body-size BYTES), a config file method and an -O
  # option of its own name. Sizes and counts go to Java as Integers, seconds as Integer
  # milliseconds (Setting#to_java). servlet: true marks those a servlet door applies too.
  module Settings
    KIB = 1024
    MIB = 1024 * KIB

    def self.limit(name, type, default, builder, help, group: :limits, puma: nil, servlet: false)
      Setting.builder_row(name, type, default, builder, help, group: group, puma: puma, servlet: servlet)
    end

    LIMITS = [
      limit(:max_body_size, :size, 100 * MIB, :maxBodySize, "largest request body; 413 beyond",
            puma: :http_content_length_limit, servlet: true),
      limit(:max_header_size, :size, 16 * KIB, :maxHeaderSize, "largest request header block; 431 beyond",
            servlet: true),
      limit(:max_uri_length, :size, 8 * KIB, :maxUriLength, "longest request line; 414 beyond", servlet: true),
      # read after a 413 (414, 431, ...) before the close, or the client sending it is reset unanswered
      limit(:max_discard_size, :size, 4 * MIB, :maxDiscardSize,
            "servlet door: body bytes read and dropped after refusing a request, so the client reads the answer",
            servlet: true),
      limit(:max_headers, :count, 100, :maxHeaders, "most request header fields; 431 beyond", servlet: true),
      limit(:max_chunk_extensions, :size, 16 * KIB, :maxChunkExtensions,
            "chunk-extension bytes a chunked body may send beyond its data (1/4 per chunk); 400 beyond"),
      limit(:max_concurrent_streams, :count, 100, :maxConcurrentStreams,
            "HTTP/2 streams one connection may have open at once; refused beyond"),
      # RST_STREAM per window (CVE-2023-44487, CVE-2025-8671)
      limit(:http2_max_resets, :count, 200, :http2MaxResets,
            "HTTP/2 RST_STREAMs per window, from the client or caused by it; GOAWAY beyond"),
      limit(:http2_reset_window, :seconds, 30, :http2ResetWindowMillis, "the window http2_max_resets counts in (whole seconds)"),
      limit(:header_timeout, :seconds, 30, :headerTimeoutMillis, "time a client gets to send a request head",
            puma: :first_data_timeout),
      # extended by 1 s per body_min_rate bytes received
      limit(:body_timeout, :seconds, 30, :bodyTimeoutMillis, "time a request body gets after its head; 408 beyond"),
      limit(:body_min_rate, :size, 1 * KIB, :bodyMinRate, "body bytes per second that earn a slow upload 1 s more; 0: none"),
      limit(:keep_alive_timeout, :seconds, 20, :keepAliveTimeoutMillis, "time an idle connection stays open",
            puma: :persistent_timeout),
      limit(:write_timeout, :seconds, 60, :writeTimeoutMillis, "time a write waits on a client not reading"),
      limit(:shutdown_timeout, :seconds, 30, :shutdownTimeoutMillis, "time requests get to finish on stop"),
      limit(:queue_size, :count, 1024, :queueSize, "requests waiting for a thread; 503 beyond", servlet: true),
      limit(:max_connections, :count, 0, :maxConnections,
            "open connections at which accepting pauses; 0: the open-file limit less 1024"),
      limit(:max_message_size, :size, 1 * MIB, :maxMessageSize, "largest WebSocket message received; closed with 1009 beyond",
            servlet: true),
      limit(:max_push_queue, :size, 1 * MIB, :maxPushQueue, "bytes queued for a slow push client; closed with 1008 beyond",
            servlet: true),
      limit(:push_send_buffer, :size, 64 * KIB, :pushSendBuffer,
            "socket send buffer of a push connection (doubled by the kernel): what a client not reading holds " \
            "there before --max-push-queue counts; 0: the OS's (Linux: up to 4 MB)"),
      limit(:push_timeout, :seconds, 40, :pushTimeoutMillis,
            "push idle time before a ping (SSE: a comment); silent WebSockets closed after 2x", servlet: true),
      limit(:control_timeout, :seconds, 5, :controlTimeoutMillis, "time /thread-backtraces waits for a worker to read Ruby backtraces")
    ].freeze

    TUNING = [
      # the HTTP/2 stream flow-control window; 65,535 is RFC 9113's default
      limit(:http2_initial_window, :size, 65_535, :http2InitialWindow,
            "HTTP/2 request body bytes a stream may send ahead of the server reading them", group: :tuning),
      limit(:body_buffer, :size, 128 * KIB, :bodyBufferSize, "body bytes kept in memory; more go to a temp file", group: :tuning,
                                                                 servlet: true),
      limit(:io_threads, :count, 0, :ioThreads, "Netty event-loop threads; 0: one per core", group: :tuning),
      # Linux nice of the Netty door's workers (ThreadNice)
      limit(:worker_nice, :count, 10, :workerNice,
            "nice value of the worker threads (0-19): the JIT compiles first while warming up; 0: off", group: :tuning),
      # each entry keeps at most 16 KiB of a file's bytes
      limit(:file_cache, :seconds, 1, :fileCacheMillis,
            "how long a --public file's stat (a small file's bytes too) is reused; 0: every request", group: :tuning),
      limit(:file_cache_entries, :count, 1024, :fileCacheEntries, "paths under --public that file_cache keeps at once",
            group: :tuning)
    ].freeze
  end
end
