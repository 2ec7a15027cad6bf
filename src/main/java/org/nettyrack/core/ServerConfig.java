package org.nettyrack.core;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every setting of a server, immutable once built. The Ruby side (CLI, config DSL, Rack
 * handler) fills a {@link Builder}; transports and the worker pool read the getters.
 * Each limit has a default here and an option of the same meaning in the CLI.
 */
public final class ServerConfig {
    /**
     * One listener: scheme {@code tcp} or {@code ssl} with host and port (port 0 asks the OS
     * for a free one), or {@code unix} with a socket path. params are the bind URI's query
     * ({@code cert}, {@code key}, {@code mode}...), read by the transport that serves the scheme.
     */
    public record Bind(String scheme, String host, int port, String path, Map<String, String> params) {
        public static final List<String> SCHEMES = List.of("tcp", "ssl", "unix");

        public Bind {
            params = Map.copyOf(params);
        }

        /** A cleartext {@code tcp://host:port} listener. */
        public Bind(String host, int port) {
            this("tcp", host, port, null, Map.of());
        }

        /** The same listener on another port (a port 0 once bound). */
        public Bind withPort(int boundPort) {
            return new Bind(scheme, host, boundPort, path, params);
        }

        public String url() {
            if ("unix".equals(scheme)) {
                return "unix://" + path;
            }
            return ("ssl".equals(scheme) ? "https" : "http") + "://"
                + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }

        void check() {
            Builder.require(SCHEMES.contains(scheme), "bind scheme must be one of " + SCHEMES + ", got " + scheme);
            if ("unix".equals(scheme)) {
                Builder.require(path != null && !path.isEmpty(), "unix bind path must not be empty");
                String mode = params.get("mode");
                Builder.require(mode == null || mode.matches("0?[0-7]{3}"),
                    "unix bind mode must be octal permissions such as 0660, got " + mode);
                String backlog = params.get("backlog");
                Builder.require(backlog == null || backlog.matches("[1-9][0-9]{0,4}") && Integer.parseInt(backlog) <= 65535,
                    "unix bind backlog must be 1..65535, got " + backlog);
                return;
            }
            Builder.require(host != null && !host.isEmpty(), "bind host must not be empty");
            Builder.require(port >= 0 && port <= 65535, "port must be 0..65535, got " + port);
        }
    }

    /**
     * The control endpoint's listener ({@code tcp://host:port}, or a {@code unix} socket path)
     * and the token a caller must show; a null token means none is asked for (an explicit
     * opt-out on the Ruby side).
     */
    public record Control(Bind listener, String token) {
        public Control(String host, int port, String token) {
            this(new Bind(host, port), token);
        }

        public String host() {
            return listener.host();
        }

        public int port() {
            return listener.port();
        }

        /** Keeps the token out of logs and exception messages. */
        @Override
        public String toString() {
            String where = "unix".equals(listener.scheme()) ? listener.url() : listener.host() + ":" + listener.port();
            return "Control[" + where + (token == null ? ", no token]" : ", token]");
        }
    }

    private final List<Bind> binds;
    private final int minThreads;
    private final int maxThreads;
    private final int queueSize;
    private final int maxConnections;
    private final int ioThreads;
    private final int workerNice;
    private final ThreadNice.SetPriority setPriority;
    private final int maxUriLength;
    private final int maxHeaderSize;
    private final int maxHeaders;
    private final int maxChunkExtensions;
    private final long maxBodySize;
    private final int bodyBufferSize;
    private final long headerTimeoutMillis;
    private final long bodyTimeoutMillis;
    private final long bodyMinRate;
    private final long keepAliveTimeoutMillis;
    private final long writeTimeoutMillis;
    private final long shutdownTimeoutMillis;
    private final int maxMessageSize;
    private final long maxPushQueue;
    private final long pushTimeoutMillis;
    private final boolean proxyProtocol;
    private final boolean http2;
    private final int maxConcurrentStreams;
    private final int http2InitialWindow;
    private final int http2MaxResets;
    private final long http2ResetWindowMillis;
    private final org.nettyrack.core.files.FileOptions files;
    private final long fileCacheMillis;
    private final int fileCacheEntries;
    private final boolean earlyHints;
    private final OutputStream accessLog;
    private final AccessLogFormat accessLogFormat;
    private final ErrorLog errorLog;
    private final Control control;
    private final long controlTimeoutMillis;

    private ServerConfig(Builder b) {
        this.binds = List.copyOf(b.binds);
        this.minThreads = b.minThreads;
        this.maxThreads = b.maxThreads;
        this.queueSize = b.queueSize;
        this.maxConnections = b.maxConnections;
        this.ioThreads = b.ioThreads;
        this.workerNice = b.workerNice;
        this.setPriority = b.setPriority;
        this.maxUriLength = b.maxUriLength;
        this.maxHeaderSize = b.maxHeaderSize;
        this.maxHeaders = b.maxHeaders;
        this.maxChunkExtensions = b.maxChunkExtensions;
        this.maxBodySize = b.maxBodySize;
        this.bodyBufferSize = b.bodyBufferSize;
        this.headerTimeoutMillis = b.headerTimeoutMillis;
        this.bodyTimeoutMillis = b.bodyTimeoutMillis;
        this.bodyMinRate = b.bodyMinRate;
        this.keepAliveTimeoutMillis = b.keepAliveTimeoutMillis;
        this.writeTimeoutMillis = b.writeTimeoutMillis;
        this.shutdownTimeoutMillis = b.shutdownTimeoutMillis;
        this.maxMessageSize = b.maxMessageSize;
        this.maxPushQueue = b.maxPushQueue;
        this.pushTimeoutMillis = b.pushTimeoutMillis;
        this.proxyProtocol = b.proxyProtocol;
        this.http2 = b.http2;
        this.maxConcurrentStreams = b.maxConcurrentStreams;
        this.http2InitialWindow = b.http2InitialWindow;
        this.http2MaxResets = b.http2MaxResets;
        this.http2ResetWindowMillis = b.http2ResetWindowMillis;
        this.files = b.files;
        this.fileCacheMillis = b.fileCacheMillis;
        this.fileCacheEntries = b.fileCacheEntries;
        this.earlyHints = b.earlyHints;
        this.accessLog = b.accessLog;
        this.accessLogFormat = b.accessLogFormat;
        this.errorLog = b.errorLog;
        this.control = b.control;
        this.controlTimeoutMillis = b.controlTimeoutMillis;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Files left for everything but connections (jars, logs, spooled bodies, Redis) by the default cap. */
    public static final int FILES_KEPT_FREE = 1024;

    /**
     * The default connection cap: the open-file limit less {@link #FILES_KEPT_FREE}, so that
     * accepting pauses before the process runs out of descriptors; 10,000 where the limit is
     * unknown.
     */
    static int defaultMaxConnections() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
            long files = ((com.sun.management.UnixOperatingSystemMXBean) os).getMaxFileDescriptorCount();
            return (int) Math.max(64, Math.min(Integer.MAX_VALUE, files - FILES_KEPT_FREE));
        }
        return 10_000;
    }

    public List<Bind> binds() { return binds; }
    public int minThreads() { return minThreads; }
    public int maxThreads() { return maxThreads; }
    /** Requests that may wait for a worker; beyond it the server answers 503. */
    public int queueSize() { return queueSize; }
    /** Open connections at which accepting pauses (the CLI's --max-connections); 0: automatic. */
    public int maxConnections() { return maxConnections; }
    /** {@link #maxConnections}, with 0 resolved: the open-file limit less {@link #FILES_KEPT_FREE}. */
    public int connectionCap() { return maxConnections > 0 ? maxConnections : defaultMaxConnections(); }
    /** Event-loop threads; 0 means one per core. */
    public int ioThreads() { return ioThreads; }
    /** Nice value of the Netty door's worker threads (0-19; {@link ThreadNice}). */
    public int workerNice() { return workerNice; }
    /** How {@link #workerNice} is applied (null: it is not; see {@link ThreadNice}). */
    public ThreadNice.SetPriority setPriority() { return setPriority; }
    /** Longest request line (method, target, version) before 414. */
    public int maxUriLength() { return maxUriLength; }
    /** Largest header block before 431. */
    public int maxHeaderSize() { return maxHeaderSize; }
    /** Most header fields before 431. */
    public int maxHeaders() { return maxHeaders; }
    /**
     * Bytes of chunk extensions a chunked request body may carry beyond its data; one chunk
     * header may use a quarter of it. 400 beyond.
     */
    public int maxChunkExtensions() { return maxChunkExtensions; }
    /** Largest request body before 413. */
    public long maxBodySize() { return maxBodySize; }
    /** Body bytes kept in memory; a larger body is spooled to a temp file. */
    public int bodyBufferSize() { return bodyBufferSize; }
    /** Time a new connection has to send a complete request head. */
    public long headerTimeoutMillis() { return headerTimeoutMillis; }
    /** Time a request body gets after its head, before 408 (see {@link BodyDeadline}). */
    public long bodyTimeoutMillis() { return bodyTimeoutMillis; }
    /** Body bytes per second that earn a slow upload more time; 0: the timeout is for the whole body. */
    public long bodyMinRate() { return bodyMinRate; }
    /** Time an idle keep-alive connection stays open between requests. */
    public long keepAliveTimeoutMillis() { return keepAliveTimeoutMillis; }
    /** Time a response write may wait for a client that does not read. */
    public long writeTimeoutMillis() { return writeTimeoutMillis; }
    /** Time in-flight requests get to finish on a graceful stop. */
    public long shutdownTimeoutMillis() { return shutdownTimeoutMillis; }
    /** Largest WebSocket message received, fragments joined; closed with 1009 beyond. */
    public int maxMessageSize() { return maxMessageSize; }
    /** Bytes a push connection may have queued for a slow client; closed with 1008 beyond. */
    public long maxPushQueue() { return maxPushQueue; }
    /**
     * Push idle time: after this long without traffic a WebSocket is pinged (an SSE stream
     * gets a comment line); a WebSocket that sends nothing for twice this long is closed.
     */
    public long pushTimeoutMillis() { return pushTimeoutMillis; }
    /**
     * Whether every connection must open with a PROXY protocol header (v1 or v2) from a load
     * balancer, whose source address then stands for the client; a connection without one is
     * dropped. Off by default: the header is then refused like any malformed request.
     */
    public boolean proxyProtocol() { return proxyProtocol; }
    /** Whether cleartext ports also speak h2c (prior knowledge and {@code Upgrade: h2c}); on by default. */
    public boolean http2() { return http2; }
    /** HTTP/2 streams one connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). */
    public int maxConcurrentStreams() { return maxConcurrentStreams; }
    /** Bytes of request body a client may send on one HTTP/2 stream before the server reads them. */
    public int http2InitialWindow() { return http2InitialWindow; }
    /**
     * HTTP/2 RST_STREAM frames a connection may see per {@link #http2ResetWindowMillis()} window,
     * counted apart: the client's (rapid reset, CVE-2023-44487) and those the server would send
     * in answer to the client's errors (MadeYouReset, CVE-2025-8671); past either, GOAWAY.
     */
    public int http2MaxResets() { return http2MaxResets; }
    /** The window {@link #http2MaxResets()} counts in: whole seconds, as Netty counts them. */
    public long http2ResetWindowMillis() { return http2ResetWindowMillis; }
    /** Public directory, x-sendfile and their rules. */
    public org.nettyrack.core.files.FileOptions files() { return files; }
    /** How long a public path's lookup and file facts (a small file's bytes too) are reused; 0: never. */
    public long fileCacheMillis() { return fileCacheMillis; }
    /** How many public paths {@link #fileCacheMillis} keeps at once. */
    public int fileCacheEntries() { return fileCacheEntries; }
    /** Whether {@code rack.early_hints} sends 103 responses (HTTP/1.1). */
    public boolean earlyHints() { return earlyHints; }
    /** Where access log lines go, or null for none. */
    public OutputStream accessLog() { return accessLog; }
    /** The access log's line format: Common Log Format unless set. */
    public AccessLogFormat accessLogFormat() { return accessLogFormat; }
    /** Where the server reports trouble outside the application (stderr unless set). */
    public ErrorLog errorLog() { return errorLog; }
    /** The control endpoint, or null for none. */
    public Control control() { return control; }
    /** Time {@code GET /thread-backtraces} waits for a worker thread to collect Ruby backtraces. */
    public long controlTimeoutMillis() { return controlTimeoutMillis; }

    /** Collects settings; {@link #build()} checks them and names the first bad one. */
    public static final class Builder {
        private final List<Bind> binds = new ArrayList<>();
        private int minThreads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private int maxThreads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
        private int queueSize = 1024;
        private int maxConnections = 0;
        private int ioThreads = 0;
        private int workerNice = 10;
        private ThreadNice.SetPriority setPriority;
        private int maxUriLength = 8 * 1024;
        private int maxHeaderSize = 16 * 1024;
        private int maxHeaders = 100;
        private int maxChunkExtensions = 16 * 1024;
        private long maxBodySize = 100L * 1024 * 1024;
        private int bodyBufferSize = 128 * 1024;
        private long headerTimeoutMillis = 30_000;
        private long bodyTimeoutMillis = 30_000;
        private long bodyMinRate = 1024;
        private long keepAliveTimeoutMillis = 20_000;
        private long writeTimeoutMillis = 60_000;
        private long shutdownTimeoutMillis = 30_000;
        private int maxMessageSize = 1024 * 1024;
        private long maxPushQueue = 1024 * 1024;
        private long pushTimeoutMillis = 40_000;
        private boolean proxyProtocol;
        private boolean http2 = true;
        private int maxConcurrentStreams = 100;
        private int http2InitialWindow = 65_535;
        private int http2MaxResets = 200;
        private long http2ResetWindowMillis = 30_000;
        private org.nettyrack.core.files.FileOptions files = org.nettyrack.core.files.FileOptions.NONE;
        private long fileCacheMillis = 1_000;
        private int fileCacheEntries = 1_024;
        private boolean earlyHints = true;
        private OutputStream accessLog;
        private AccessLogFormat accessLogFormat = AccessLogFormat.COMMON;
        private ErrorLog errorLog = ErrorLog.stderr();
        private Control control;
        private long controlTimeoutMillis = 5_000;

        private Builder() {
        }

        public Builder bind(String host, int port) { binds.add(new Bind(host, port)); return this; }
        public Builder bind(Bind bind) { binds.add(bind); return this; }
        public Builder threads(int min, int max) { minThreads = min; maxThreads = max; return this; }
        public Builder queueSize(int n) { queueSize = n; return this; }
        /** 0: the process's open-file limit less {@link #FILES_KEPT_FREE}. */
        public Builder maxConnections(int n) { maxConnections = n; return this; }
        public Builder ioThreads(int n) { ioThreads = n; return this; }
        public Builder workerNice(int n) { workerNice = n; return this; }
        public Builder setPriority(ThreadNice.SetPriority call) { setPriority = call; return this; }
        public Builder maxUriLength(int n) { maxUriLength = n; return this; }
        public Builder maxHeaderSize(int n) { maxHeaderSize = n; return this; }
        public Builder maxHeaders(int n) { maxHeaders = n; return this; }
        public Builder maxChunkExtensions(int n) { maxChunkExtensions = n; return this; }
        public Builder maxBodySize(long n) { maxBodySize = n; return this; }
        public Builder bodyBufferSize(int n) { bodyBufferSize = n; return this; }
        public Builder headerTimeoutMillis(long ms) { headerTimeoutMillis = ms; return this; }
        public Builder bodyTimeoutMillis(long ms) { bodyTimeoutMillis = ms; return this; }
        public Builder bodyMinRate(long bytesPerSecond) { bodyMinRate = bytesPerSecond; return this; }
        public Builder keepAliveTimeoutMillis(long ms) { keepAliveTimeoutMillis = ms; return this; }
        public Builder writeTimeoutMillis(long ms) { writeTimeoutMillis = ms; return this; }
        public Builder shutdownTimeoutMillis(long ms) { shutdownTimeoutMillis = ms; return this; }
        public Builder maxMessageSize(int n) { maxMessageSize = n; return this; }
        public Builder maxPushQueue(long n) { maxPushQueue = n; return this; }
        public Builder pushTimeoutMillis(long ms) { pushTimeoutMillis = ms; return this; }
        public Builder proxyProtocol(boolean on) { proxyProtocol = on; return this; }
        public Builder http2(boolean on) { http2 = on; return this; }
        public Builder maxConcurrentStreams(int n) { maxConcurrentStreams = n; return this; }
        public Builder http2InitialWindow(int n) { http2InitialWindow = n; return this; }
        public Builder http2MaxResets(int n) { http2MaxResets = n; return this; }
        public Builder http2ResetWindowMillis(long ms) { http2ResetWindowMillis = ms; return this; }
        public Builder files(org.nettyrack.core.files.FileOptions options) { files = options; return this; }
        public Builder fileCacheMillis(long ms) { fileCacheMillis = ms; return this; }
        public Builder fileCacheEntries(int n) { fileCacheEntries = n; return this; }
        public Builder earlyHints(boolean on) { earlyHints = on; return this; }
        public Builder accessLog(OutputStream out) { accessLog = out; return this; }
        public Builder accessLogFormat(String name) { accessLogFormat = AccessLogFormat.named(name); return this; }
        public Builder control(String host, int port, String token) { control = new Control(host, port, token); return this; }
        public Builder control(Bind listener, String token) { control = new Control(listener, token); return this; }
        public Builder controlTimeoutMillis(long ms) { controlTimeoutMillis = ms; return this; }
        public Builder errorLog(OutputStream out) { errorLog = out == null ? ErrorLog.stderr() : new ErrorLog(out); return this; }

        public ServerConfig build() {
            if (binds.isEmpty()) {
                binds.add(new Bind("0.0.0.0", 9292));
            }
            binds.forEach(Bind::check);
            require(minThreads >= 0, "minimum threads must be 0 or more, got " + minThreads);
            require(maxThreads >= 1, "maximum threads must be 1 or more, got " + maxThreads);
            require(minThreads <= maxThreads,
                "minimum threads (" + minThreads + ") exceed the maximum (" + maxThreads + ")");
            require(queueSize >= 0, "queue size must be 0 or more, got " + queueSize);
            require(maxConnections >= 0, "max connections must be 0 (automatic) or more, got " + maxConnections);
            require(ioThreads >= 0, "io threads must be 0 or more, got " + ioThreads);
            require(workerNice >= 0 && workerNice <= 19, "worker nice must be 0 to 19, got " + workerNice);
            require(maxUriLength >= 64, "max URI length must be at least 64 bytes, got " + maxUriLength);
            require(maxHeaderSize >= 256, "max header size must be at least 256 bytes, got " + maxHeaderSize);
            require(maxHeaders >= 1, "max headers must be 1 or more, got " + maxHeaders);
            require(maxChunkExtensions >= 256,
                "max chunk extensions must be at least 256 bytes, got " + maxChunkExtensions);
            require(maxBodySize >= 0, "max body size must be 0 or more, got " + maxBodySize);
            require(bodyBufferSize >= 0, "body buffer size must be 0 or more, got " + bodyBufferSize);
            require(headerTimeoutMillis > 0, "header timeout must be positive");
            require(bodyTimeoutMillis > 0, "body timeout must be positive");
            require(bodyMinRate >= 0, "body minimum rate must be 0 or more, got " + bodyMinRate);
            require(keepAliveTimeoutMillis > 0, "keep-alive timeout must be positive");
            require(writeTimeoutMillis > 0, "write timeout must be positive");
            require(shutdownTimeoutMillis >= 0, "shutdown timeout must be 0 or more");
            require(maxMessageSize >= 125, "max message size must be at least 125 bytes, got " + maxMessageSize);
            require(maxPushQueue >= 1024, "max push queue must be at least 1024 bytes, got " + maxPushQueue);
            require(pushTimeoutMillis >= 100, "push timeout must be at least 100 ms");
            require(maxConcurrentStreams >= 1, "max concurrent streams must be 1 or more, got " + maxConcurrentStreams);
            require(http2InitialWindow >= 1024, "HTTP/2 initial window must be at least 1024 bytes, got " + http2InitialWindow);
            require(http2MaxResets >= 1 && http2MaxResets <= 1_000_000,
                "HTTP/2 max resets must be 1..1000000, got " + http2MaxResets);
            require(http2ResetWindowMillis >= 1_000 && http2ResetWindowMillis <= 3_600_000 && http2ResetWindowMillis % 1_000 == 0,
                "HTTP/2 reset window must be whole seconds from 1 to 3600, got " + http2ResetWindowMillis / 1000.0 + " s");
            require(controlTimeoutMillis > 0, "control timeout must be positive");
            if (control != null && "unix".equals(control.listener().scheme())) {
                control.listener().check();
            } else if (control != null) {
                require("tcp".equals(control.listener().scheme()),
                    "control endpoint must be tcp or unix, got " + control.listener().scheme());
                require(control.host() != null && !control.host().isEmpty(), "control host must not be empty");
                require(control.port() >= 0 && control.port() <= 65535, "control port must be 0..65535, got " + control.port());
            }
            if (control != null) {
                require(control.token() == null || !control.token().isEmpty(),
                    "control token must not be empty (opt out of tokens explicitly instead)");
            }
            require(files != null, "file options must not be null");
            require(fileCacheMillis >= 0 && fileCacheMillis <= 3_600_000,
                "file cache time must be 0 to 3600 s, got " + fileCacheMillis / 1000.0 + " s");
            require(fileCacheEntries >= 1 && fileCacheEntries <= 1_000_000,
                "file cache entries must be 1 to 1000000, got " + fileCacheEntries);
            require(files.publicDir() == null || java.nio.file.Files.isDirectory(files.publicDir()),
                "public directory " + files.publicDir() + " is not a directory");
            return new ServerConfig(this);
        }

        private static void require(boolean ok, String message) {
            if (!ok) {
                throw new IllegalArgumentException(message);
            }
        }
    }
}
