package org.nettyrack.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nettyrack.core.AccessLogFormat;
import org.nettyrack.core.ThreadNice;

class ServerConfigTest {
    @Test
    void defaultsAreSaneAndListenOn9292() {
        ServerConfig c = ServerConfig.builder().build();
        assertEquals("http://0.0.0.0:9292", c.listen().binds().get(0).url());
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(cores, c.workers().minThreads());
        assertEquals(Math.max(4, 2 * cores), c.workers().maxThreads(), "few threads beyond the cores: see Configuration.default_threads");
        assertEquals(100L * 1024 * 1024, c.limits().maxBodySize());
        assertEquals(8 * 1024, c.limits().maxUriLength());
        assertEquals(16 * 1024, c.limits().maxHeaderSize());
        assertFalse(c.listen().proxyProtocol(), "a PROXY header is only expected when asked for");
        assertEquals(10, c.workers().workerNice(), "the JIT compiles ahead of the app while both want the cores");
    }

    @Test
    void badValuesAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().threads(8, 2).build());
        assertEquals("minimum threads (8) exceed the maximum (2)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().bind("0.0.0.0", 70000).build());
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().maxHeaders(0).build());
        assertEquals("worker nice must be 0 to 19, got 20", assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().workerNice(20).build()).getMessage());
        assertEquals(19, ServerConfig.builder().workerNice(19).build().workers().workerNice());
    }

    @Test
    void theFileCacheHasItsDefaultsAndBounds() {
        ServerConfig defaults = ServerConfig.builder().build();
        assertEquals(1_000, defaults.fileSettings().fileCacheMillis());
        assertEquals(1_024, defaults.fileSettings().fileCacheEntries());
        assertEquals(0, ServerConfig.builder().fileCacheMillis(0).build().fileSettings().fileCacheMillis(), "0: no cache");
        assertEquals("file cache time must be 0 to 3600 s, got 3600.001 s", assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().fileCacheMillis(3_600_001).build()).getMessage());
        assertEquals("file cache entries must be 1 to 1000000, got 0", assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().fileCacheEntries(0).build()).getMessage());
    }

    @Test
    void theHttp2ResetLimitHasItsDefaultsAndBounds() {
        ServerConfig defaults = ServerConfig.builder().build();
        assertEquals(200, defaults.http2Settings().maxResets());
        assertEquals(30_000, defaults.http2Settings().resetWindowMillis());
        ServerConfig edges = ServerConfig.builder().http2MaxResets(1_000_000).http2ResetWindowMillis(3_600_000).build();
        assertEquals(1_000_000, edges.http2Settings().maxResets());
        assertEquals(1, ServerConfig.builder().http2MaxResets(1).http2ResetWindowMillis(1_000).build().http2Settings().maxResets());
        assertEquals("HTTP/2 max resets must be 1..1000000, got 0", assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().http2MaxResets(0).build()).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().http2MaxResets(1_000_001).build());
        for (long ms : new long[] {999, 1_500, 3_601_000}) {
            assertEquals("HTTP/2 reset window must be whole seconds from 1 to 3600, got " + ms / 1000.0 + " s",
                assertThrows(IllegalArgumentException.class,
                    () -> ServerConfig.builder().http2ResetWindowMillis(ms).build()).getMessage());
        }
    }

    @Test
    void theConnectionCapLeavesFilesForEverythingElse() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long files = ((com.sun.management.UnixOperatingSystemMXBean) os).getMaxFileDescriptorCount();
        assertEquals(0, ServerConfig.builder().build().workers().maxConnections());
        assertEquals(Math.max(64, files - WorkerSettings.FILES_KEPT_FREE), ServerConfig.builder().build().workers().connectionCap());
        assertEquals(300, ServerConfig.builder().maxConnections(300).build().workers().connectionCap());
    }

    @Test
    void hasNoControlEndpointUnlessOneIsConfigured() {
        ServerConfig c = ServerConfig.builder().build();
        assertNull(c.controlSettings().control());
        assertEquals(5_000, c.controlSettings().controlTimeoutMillis());
        assertEquals(AccessLogFormat.COMMON, c.logs().accessLogFormat());
        ControlEndpoint control = ServerConfig.builder().control("127.0.0.1", 0, null).build().controlSettings().control();
        assertEquals(new ControlEndpoint("127.0.0.1", 0, null), control);
    }

    @Test
    void badControlSettingsAreNamed() {
        assertEquals("control port must be 0..65535, got 70000", assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().control("127.0.0.1", 70000, "t").build()).getMessage());
        assertEquals("control host must not be empty", assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().control("", 1, "t").build()).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().control("127.0.0.1", 1, "").build()).getMessage().startsWith("control token must not be empty"));
        assertEquals("control timeout must be positive", assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().controlTimeoutMillis(0).build()).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().accessLogFormat("xml"));
    }

    @Test
    void keepsTheControlTokenOutOfItsText() {
        assertEquals("ControlEndpoint[127.0.0.1:9293, token]", new ControlEndpoint("127.0.0.1", 9293, "s3cret").toString());
        assertEquals("ControlEndpoint[::1:9293, no token]", new ControlEndpoint("::1", 9293, null).toString());
    }

    @Test
    void ipv6BindsGetBrackets() {
        assertEquals("http://[::1]:80", new Bind("::1", 80).url());
    }

    @Test
    void tlsAndUnixBindsNameTheirScheme() {
        ServerConfig c = ServerConfig.builder()
            .bind(new Bind("ssl", "::1", 9443, null, java.util.Map.of("cert", "c.pem")))
            .bind(new Bind("unix", null, 0, "/run/app.sock", java.util.Map.of("mode", "0660")))
            .build();
        assertEquals("https://[::1]:9443", c.listen().binds().get(0).url());
        assertEquals("c.pem", c.listen().binds().get(0).params().get("cert"));
        assertEquals("unix:///run/app.sock", c.listen().binds().get(1).url());
        assertEquals("http://[::1]:8080", new Bind("::1", 0).withPort(8080).url());
    }

    @Test
    void refusesBindsWithoutAnAddress() {
        assertEquals("unix bind path must not be empty", assertThrows(IllegalArgumentException.class, () ->
            ServerConfig.builder().bind(new Bind("unix", null, 0, "", java.util.Map.of())).build()).getMessage());
        assertEquals("bind scheme must be one of [tcp, ssl, unix], got udp", assertThrows(IllegalArgumentException.class, () ->
            ServerConfig.builder().bind(new Bind("udp", "h", 1, null, java.util.Map.of())).build()).getMessage());
        assertEquals("bind host must not be empty", assertThrows(IllegalArgumentException.class, () ->
            ServerConfig.builder().bind("", 1).build()).getMessage());
    }

    @Test
    void checksTheParamsOfUnixBinds() {
        for (String mode : new String[] {"660", "0660", "0777"}) {
            ServerConfig.builder().bind(unix(java.util.Map.of("mode", mode))).build();
        }
        for (String mode : new String[] {"0668", "1777", "rw", "06600"}) {
            assertEquals("unix bind mode must be octal permissions such as 0660, got " + mode,
                assertThrows(IllegalArgumentException.class, () ->
                    ServerConfig.builder().bind(unix(java.util.Map.of("mode", mode))).build()).getMessage());
        }
        ServerConfig.builder().bind(unix(java.util.Map.of("backlog", "65535"))).build();
        for (String backlog : new String[] {"0", "65536", "-1", "many"}) {
            assertEquals("unix bind backlog must be 1..65535, got " + backlog,
                assertThrows(IllegalArgumentException.class, () ->
                    ServerConfig.builder().bind(unix(java.util.Map.of("backlog", backlog))).build()).getMessage());
        }
    }

    @Test
    void aBuilderGivenNothingBuildsTheDefaults() {
        ServerConfig built = ServerConfig.builder().build();
        assertEquals(ServerConfig.defaults(), built);
        assertEquals(RequestLimits.DEFAULTS, built.limits());
        assertEquals(Timeouts.DEFAULTS, built.timeouts());
        assertEquals(WorkerSettings.DEFAULTS, built.workers());
        assertEquals(Listen.DEFAULTS, built.listen());
        assertEquals(Http2Settings.DEFAULTS, built.http2Settings());
        assertEquals(PushSettings.DEFAULTS, built.push());
        assertEquals(FileSettings.DEFAULTS, built.fileSettings());
        assertEquals(LogSettings.DEFAULTS, built.logs());
        assertEquals(ControlSettings.DEFAULTS, built.controlSettings());
    }

    @Test
    void waitThreadsAreTheDefaultsOnlyWithTheDefaultThreads() {
        WorkerSettings defaults = WorkerSettings.DEFAULTS;
        assertEquals(2 * defaults.maxThreads(), ServerConfig.builder().build().workers().waitThreads());
        assertEquals(0, ServerConfig.builder().threads(4, 4).build().workers().waitThreads(), "threads chosen: none");
        assertEquals(6, ServerConfig.builder().threads(4, 4).waitThreads(6).build().workers().waitThreads());
        assertEquals(0, ServerConfig.builder().waitThreads(0).build().workers().waitThreads());
    }

    @Test
    void everyBuilderSettingReachesItsRecord() {
        java.io.ByteArrayOutputStream access = new java.io.ByteArrayOutputStream();
        ThreadNice.SetPriority priority = (tid, nice) -> 0;
        ServerConfig c = ServerConfig.builder().bind("127.0.0.1", 1).proxyProtocol(true)
            .threads(2, 3).waitThreads(25).queueSize(4).maxConnections(5).ioThreads(6).workerNice(7).setPriority(priority)
            .maxUriLength(100).maxHeaderSize(300).maxHeaders(8).maxChunkExtensions(400).maxBodySize(9).bodyBufferSize(10)
            .maxDiscardSize(24)
            .headerTimeoutMillis(11).bodyTimeoutMillis(12).bodyMinRate(13).keepAliveTimeoutMillis(14).writeTimeoutMillis(15)
            .shutdownTimeoutMillis(16)
            .http2(false).maxConcurrentStreams(17).http2InitialWindow(2048).http2MaxResets(18).http2ResetWindowMillis(19_000)
            .maxMessageSize(200).maxPushQueue(2000).pushTimeoutMillis(500)
            .files(org.nettyrack.core.files.FileOptions.NONE).fileCacheMillis(20).fileCacheEntries(21).earlyHints(false)
            .accessLog(access).accessLogFormat("json").errorLog(null).otel("off")
            .control("127.0.0.1", 22, "t").controlTimeoutMillis(23)
            .build();
        assertEquals(new Listen(java.util.List.of(new Bind("127.0.0.1", 1)), true), c.listen());
        assertEquals(new WorkerSettings(2, 3, 25, 4, 5, 6, 7, priority), c.workers());
        assertEquals(new RequestLimits(100, 300, 8, 400, 9, 10, 24), c.limits());
        assertEquals(new Timeouts(11, 12, 13, 14, 15, 16), c.timeouts());
        assertEquals(new Http2Settings(false, 17, 2048, 18, 19_000), c.http2Settings());
        assertEquals(new PushSettings(200, 2000, 500, 64 * 1024), c.push());
        assertEquals(new FileSettings(org.nettyrack.core.files.FileOptions.NONE, 20, 21, false), c.fileSettings());
        assertEquals(new LogSettings(access, AccessLogFormat.JSON, LogSettings.DEFAULTS.errorLog(), false), c.logs());
        assertEquals(new ControlSettings(new ControlEndpoint("127.0.0.1", 22, "t"), 23), c.controlSettings());
    }

    @Test
    void aConfigMadeWithoutTheBuilderIsCheckedToo() {
        assertEquals("max headers must be 1 or more, got 0", assertThrows(IllegalArgumentException.class, () ->
            new ServerConfig(Listen.DEFAULTS, WorkerSettings.DEFAULTS, new RequestLimits(64, 256, 0, 256, 0, 0, 0),
                Timeouts.DEFAULTS, Http2Settings.DEFAULTS, PushSettings.DEFAULTS, FileSettings.DEFAULTS, LogSettings.DEFAULTS,
                ControlSettings.DEFAULTS)).getMessage());
    }

    private static Bind unix(java.util.Map<String, String> params) {
        return new Bind("unix", null, 0, "/run/app.sock", params);
    }

    @Test
    void withWaitThreadsChangesThatAloneAndKeepsTheRest() {
        ServerConfig built = ServerConfig.builder().threads(2, 8).waitThreads(16).maxBodySize(1024).build();
        ServerConfig fitted = built.withWaitThreads(3);
        assertEquals(3, fitted.workers().waitThreads());
        assertEquals(built.workers().toString().replace("waitThreads=16", "waitThreads=3"), fitted.workers().toString());
        assertSame(built.limits(), fitted.limits());
        assertSame(built.logs(), fitted.logs());
        assertSame(built, built.withWaitThreads(16));
    }
}
