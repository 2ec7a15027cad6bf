package org.nettyrack.core.config;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.nettyrack.core.AccessLogFormat;
import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.ThreadNice;

/**
 * Every setting of a server, immutable once built: one record per concern (listeners,
 * workers, request limits, timeouts, HTTP/2, push, files, logs, control), each with its
 * defaults ({@code DEFAULTS}) and its {@code check()}. The Ruby side (CLI, config DSL, Rack
 * handler, the WAR's listener) fills a {@link Builder} by setting name; transports and the
 * worker pool read the records ({@code config.limits().maxBodySize()}).
 * {@link #defaults()} is what a builder given nothing builds: the one place Java writes a
 * default, for code that never passes through Ruby; Ruby's settings table gives the same
 * values (a spec, java_config_spec, keeps the two equal).
 */
public record ServerConfig(Listen listen, WorkerSettings workers, RequestLimits limits, Timeouts timeouts,
                           Http2Settings http2Settings, PushSettings push, FileSettings fileSettings, LogSettings logs,
                           ControlSettings controlSettings) {
    /** Checks every record, in the order the settings were always checked; names the first bad value. */
    public ServerConfig {
        for (Runnable check : new Runnable[] {listen::check, workers::check, limits::check, timeouts::check,
                push::check, http2Settings::check, controlSettings::check, fileSettings::check, logs::check}) {
            check.run();
        }
    }

    /** The settings of a server given none: every record's {@code DEFAULTS}. */
    public static ServerConfig defaults() {
        return new ServerConfig(Listen.DEFAULTS, WorkerSettings.DEFAULTS, RequestLimits.DEFAULTS, Timeouts.DEFAULTS,
            Http2Settings.DEFAULTS, PushSettings.DEFAULTS, FileSettings.DEFAULTS, LogSettings.DEFAULTS,
            ControlSettings.DEFAULTS);
    }

    /**
     * The same settings with {@code waitThreads} threads allowed past the pool's maximum
     * while requests wait on I/O: the one value fitted after the settings were built, once
     * the application's database pools are known. This same config when nothing changes.
     */
    public ServerConfig withWaitThreads(int waitThreads) {
        if (waitThreads == workers.waitThreads()) {
            return this;
        }
        WorkerSettings fitted = new WorkerSettings(workers.minThreads(), workers.maxThreads(), waitThreads,
            workers.queueSize(), workers.maxConnections(), workers.ioThreads(), workers.workerNice(), workers.setPriority());
        return new ServerConfig(listen, fitted, limits, timeouts, http2Settings, push, fileSettings, logs, controlSettings);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Collects settings by name (the names Ruby's settings table uses); {@link #build()} checks
     * them and names the first bad one. Each field starts from its record's {@code DEFAULTS}.
     */
    public static final class Builder {
        private final List<Bind> binds = new ArrayList<>();
        private boolean proxyProtocol = Listen.DEFAULTS.proxyProtocol();
        private int minThreads = WorkerSettings.DEFAULTS.minThreads();
        private int maxThreads = WorkerSettings.DEFAULTS.maxThreads();
        private boolean threadsChosen;
        private Integer waitThreads;
        private int queueSize = WorkerSettings.DEFAULTS.queueSize();
        private int maxConnections = WorkerSettings.DEFAULTS.maxConnections();
        private int ioThreads = WorkerSettings.DEFAULTS.ioThreads();
        private int workerNice = WorkerSettings.DEFAULTS.workerNice();
        private ThreadNice.SetPriority setPriority = WorkerSettings.DEFAULTS.setPriority();
        private int maxUriLength = RequestLimits.DEFAULTS.maxUriLength();
        private int maxHeaderSize = RequestLimits.DEFAULTS.maxHeaderSize();
        private int maxHeaders = RequestLimits.DEFAULTS.maxHeaders();
        private int maxChunkExtensions = RequestLimits.DEFAULTS.maxChunkExtensions();
        private long maxBodySize = RequestLimits.DEFAULTS.maxBodySize();
        private int bodyBufferSize = RequestLimits.DEFAULTS.bodyBufferSize();
        private long maxDiscardSize = RequestLimits.DEFAULTS.maxDiscardSize();
        private long headerTimeoutMillis = Timeouts.DEFAULTS.headerTimeoutMillis();
        private long bodyTimeoutMillis = Timeouts.DEFAULTS.bodyTimeoutMillis();
        private long bodyMinRate = Timeouts.DEFAULTS.bodyMinRate();
        private long keepAliveTimeoutMillis = Timeouts.DEFAULTS.keepAliveTimeoutMillis();
        private long writeTimeoutMillis = Timeouts.DEFAULTS.writeTimeoutMillis();
        private long shutdownTimeoutMillis = Timeouts.DEFAULTS.shutdownTimeoutMillis();
        private boolean http2 = Http2Settings.DEFAULTS.enabled();
        private int maxConcurrentStreams = Http2Settings.DEFAULTS.maxConcurrentStreams();
        private int http2InitialWindow = Http2Settings.DEFAULTS.initialWindow();
        private int http2MaxResets = Http2Settings.DEFAULTS.maxResets();
        private long http2ResetWindowMillis = Http2Settings.DEFAULTS.resetWindowMillis();
        private int maxMessageSize = PushSettings.DEFAULTS.maxMessageSize();
        private long maxPushQueue = PushSettings.DEFAULTS.maxPushQueue();
        private long pushTimeoutMillis = PushSettings.DEFAULTS.pushTimeoutMillis();
        private int pushSendBuffer = PushSettings.DEFAULTS.pushSendBuffer();
        private org.nettyrack.core.files.FileOptions files = FileSettings.DEFAULTS.files();
        private long fileCacheMillis = FileSettings.DEFAULTS.fileCacheMillis();
        private int fileCacheEntries = FileSettings.DEFAULTS.fileCacheEntries();
        private boolean earlyHints = FileSettings.DEFAULTS.earlyHints();
        private OutputStream accessLog = LogSettings.DEFAULTS.accessLog();
        private AccessLogFormat accessLogFormat = LogSettings.DEFAULTS.accessLogFormat();
        private ErrorLog errorLog = LogSettings.DEFAULTS.errorLog();
        private boolean traces = LogSettings.DEFAULTS.traces();
        private ControlEndpoint control = ControlSettings.DEFAULTS.control();
        private long controlTimeoutMillis = ControlSettings.DEFAULTS.controlTimeoutMillis();
        private ControlEndpoint metrics = ControlSettings.DEFAULTS.metrics();

        private Builder() {
        }

        public Builder bind(String host, int port) { binds.add(new Bind(host, port)); return this; }
        public Builder bind(Bind bind) { binds.add(bind); return this; }
        public Builder threads(int min, int max) { minThreads = min; maxThreads = max; threadsChosen = true; return this; }
        /** Unless set, the default's when {@link #threads} was not called, else 0. */
        public Builder waitThreads(int n) { waitThreads = n; return this; }
        public Builder queueSize(int n) { queueSize = n; return this; }
        /** 0: the process's open-file limit less {@link WorkerSettings#FILES_KEPT_FREE}. */
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
        public Builder maxDiscardSize(long n) { maxDiscardSize = n; return this; }
        public Builder headerTimeoutMillis(long ms) { headerTimeoutMillis = ms; return this; }
        public Builder bodyTimeoutMillis(long ms) { bodyTimeoutMillis = ms; return this; }
        public Builder bodyMinRate(long bytesPerSecond) { bodyMinRate = bytesPerSecond; return this; }
        public Builder keepAliveTimeoutMillis(long ms) { keepAliveTimeoutMillis = ms; return this; }
        public Builder writeTimeoutMillis(long ms) { writeTimeoutMillis = ms; return this; }
        public Builder shutdownTimeoutMillis(long ms) { shutdownTimeoutMillis = ms; return this; }
        public Builder maxMessageSize(int n) { maxMessageSize = n; return this; }
        public Builder maxPushQueue(long n) { maxPushQueue = n; return this; }
        public Builder pushTimeoutMillis(long ms) { pushTimeoutMillis = ms; return this; }
        public Builder pushSendBuffer(int bytes) { pushSendBuffer = bytes; return this; }
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
        public Builder otel(String mode) { traces = LogSettings.traces(mode); return this; }
        public Builder control(String host, int port, String token) { control = new ControlEndpoint(host, port, token); return this; }
        public Builder control(Bind listener, String token) { control = new ControlEndpoint(listener, token); return this; }
        public Builder controlTimeoutMillis(long ms) { controlTimeoutMillis = ms; return this; }
        /** The token-less metrics listener ({@code --metrics-url}). */
        public Builder metrics(String host, int port) { metrics = new ControlEndpoint(host, port, null); return this; }
        public Builder metrics(Bind listener) { metrics = new ControlEndpoint(listener, null); return this; }
        public Builder errorLog(OutputStream out) { errorLog = out == null ? LogSettings.DEFAULTS.errorLog() : new ErrorLog(out); return this; }

        public ServerConfig build() {
            return new ServerConfig(
                new Listen(binds.isEmpty() ? Listen.DEFAULTS.binds() : binds, proxyProtocol),
                new WorkerSettings(minThreads, maxThreads,
                    waitThreads != null ? waitThreads : threadsChosen ? 0 : WorkerSettings.DEFAULTS.waitThreads(),
                    queueSize, maxConnections, ioThreads, workerNice, setPriority),
                new RequestLimits(maxUriLength, maxHeaderSize, maxHeaders, maxChunkExtensions, maxBodySize, bodyBufferSize,
                    maxDiscardSize),
                new Timeouts(headerTimeoutMillis, bodyTimeoutMillis, bodyMinRate, keepAliveTimeoutMillis, writeTimeoutMillis,
                    shutdownTimeoutMillis),
                new Http2Settings(http2, maxConcurrentStreams, http2InitialWindow, http2MaxResets, http2ResetWindowMillis),
                new PushSettings(maxMessageSize, maxPushQueue, pushTimeoutMillis, pushSendBuffer),
                new FileSettings(files, fileCacheMillis, fileCacheEntries, earlyHints),
                new LogSettings(accessLog, accessLogFormat, errorLog, traces),
                new ControlSettings(control, controlTimeoutMillis, metrics));
        }
    }
}
