package org.nettyrack.netty.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.Workers;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.H2Client;
import org.nettyrack.netty.PipelineHarness;
import org.nettyrack.netty.pipeline.ConnectionEvent;
import org.nettyrack.netty.pipeline.PipelineNames;

/**
 * HTTP/2 into the core and back, on the real connection pipeline ({@link PipelineHarness}) with
 * Netty's client frame codec as the client ({@link H2Client}): each stream is one
 * {@code RackRequest} that says {@code HTTP/2} and carries only the client's own fields.
 */
class Http2SupportTest {
    @TempDir
    Path dir;

    /** Remembers what each request looked like; answers its path, or sends the file /file names. */
    private final List<String> seen = new ArrayList<>();
    private final RackHandler app = (request, response) -> {
        seen.add(describe(request));
        ResponseHeaders headers = new ResponseHeaders();
        headers.add("content-type", "text/plain");
        headers.add("connection", "keep-alive");
        if (request.target().equals("/file")) {
            try {
                Path file = dir.resolve("f.txt");
                Files.writeString(file, "x".repeat(40_000) + "end");
                response.begin(200, headers, 40_003);
                response.sendFile(file, 0, 40_003);
                response.end();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        byte[] body = ("you asked for " + request.target()).getBytes(StandardCharsets.US_ASCII);
        response.respond(200, headers, body, 0, body.length);
    };
    private final List<Runnable> pending = new ArrayList<>();
    private final Workers now = task -> {
        task.run();
        return true;
    };

    private static String describe(RackRequest request) {
        StringBuilder fields = new StringBuilder();
        request.forEachHeader((name, value) -> fields.append(' ').append(name).append('=').append(value));
        return request.protocol() + " " + request.method() + " " + request.target() + " body=" + request.body().length()
            + fields;
    }

    @Test
    void aStreamReachesTheAppAsOneHttp2RequestWithOnlyTheClientsFields() {
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, now);
        H2Client client = new H2Client(server.channel);
        Http2FrameStream stream = client.send(H2Client.get("/hello?a=1").add("x-trace", "7"), true);

        assertEquals(List.of("HTTP/2 GET /hello?a=1 body=0 host=example.test x-trace=7"), seen);
        H2Client.Response response = client.response(stream);
        assertEquals("200", response.headers.status().toString());
        assertEquals("text/plain", response.headers.get("content-type").toString());
        assertNull(response.headers.get("connection"), "no connection-specific fields on HTTP/2");
        assertEquals("you asked for /hello?a=1", response.body.toString());
        assertTrue(response.ended);
        assertNotNull(server.channel.pipeline().get(PipelineNames.H2_CODEC));
        assertNull(server.channel.pipeline().get(PipelineNames.DECODER));
    }

    @Test
    void aBodyInSeveralFramesArrivesWholeAndTrailersAreIgnored() {
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, now);
        H2Client client = new H2Client(server.channel);
        Http2FrameStream stream = client.send(H2Client.post("/up"), false);
        client.data(stream, "hello ", false);
        client.data(stream, "world", false);
        assertEquals(List.of(), seen, "the app runs once the body is complete");
        client.trailers(stream, new DefaultHttp2Headers().add("x-checksum", "abc"));

        assertEquals(List.of("HTTP/2 POST /up body=11 host=example.test"), seen);
        assertEquals("you asked for /up", client.response(stream).body.toString());
    }

    @Test
    void aBodyOfManyWindowsIsSpooledToAFileAndCreditsTheWindowAsItArrives() {
        List<String> bodies = new ArrayList<>();
        RackHandler upload = (request, response) -> {
            bodies.add(request.body().length() + (request.body().inMemory() ? " in memory" : " in a file"));
            response.respond(200, new ResponseHeaders(), new byte[0], 0, 0);
        };
        // A 16 KiB stream window and a 64 KiB connection window: the client may send 320 KB only
        // if the server returns window as it reads; the body buffer keeps 1 KiB on the heap.
        ServerConfig config = ServerConfig.builder().http2InitialWindow(16_384).bodyBufferSize(1024).build();
        H2Client client = new H2Client(new PipelineHarness(config, upload, now).channel);
        Http2FrameStream stream = client.send(H2Client.post("/up"), false);
        for (int i = 0; i < 20; i++) {
            client.data(stream, "x".repeat(16_000), i == 19);
        }
        assertEquals(List.of("320000 in a file"), bodies);
        assertEquals("200", client.response(stream).headers.status().toString());
    }

    @Test
    void aBodyOverTheLimitGets413AndTheStreamEndsWithoutError() {
        ServerConfig config = ServerConfig.builder().maxBodySize(10_000).build();
        PipelineHarness server = new PipelineHarness(config, app, now);
        H2Client client = new H2Client(server.channel);
        Http2FrameStream declared = client.send(H2Client.post("/declared").add("content-length", "20000"), false);
        Http2FrameStream undeclared = client.send(H2Client.post("/undeclared"), false);
        for (int i = 0; i < 3; i++) {
            client.data(undeclared, "y".repeat(4_000), false);
        }

        for (Http2FrameStream stream : List.of(declared, undeclared)) {
            H2Client.Response response = client.response(stream);
            assertEquals("413", response.headers.status().toString());
            assertEquals("413 Request Entity Too Large\n", response.body.toString());
            assertTrue(response.ended);
            // RFC 9113 8.1: NO_ERROR asks the client to stop sending and keep the answer; CANCEL made it drop the answer
            assertEquals(Http2Error.NO_ERROR.code(), client.resets.get(stream.id()));
        }
        assertEquals(List.of(), seen);
        Http2FrameStream next = client.send(H2Client.get("/next"), true);
        assertEquals("you asked for /next", client.response(next).body.toString(), "the connection serves on");
    }

    @Test
    void aStalledBodyGets408AndTheStreamEndsWithoutErrorWhileTheConnectionServesOn() {
        ServerConfig config = ServerConfig.builder().bodyTimeoutMillis(2_000).bodyMinRate(0).keepAliveTimeoutMillis(60_000).build();
        PipelineHarness server = new PipelineHarness(config, app, now);
        H2Client client = new H2Client(server.channel);
        Http2FrameStream stalled = client.send(H2Client.post("/stalled"), false);
        client.data(stalled, "part of it", false);
        server.channel.advanceTimeBy(2_500, TimeUnit.MILLISECONDS);
        server.channel.runScheduledPendingTasks();
        client.pump();

        assertEquals("408", client.response(stalled).headers.status().toString());
        assertEquals(Http2Error.NO_ERROR.code(), client.resets.get(stalled.id()));
        assertEquals(List.of(), seen);
        Http2FrameStream next = client.send(H2Client.get("/next"), true);
        assertEquals("you asked for /next", client.response(next).body.toString());
    }

    @Test
    void streamsOfOneConnectionGoToTheWorkersSideBySide() {
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, pending::add);
        H2Client client = new H2Client(server.channel);
        Http2FrameStream a = client.send(H2Client.get("/a"), true);
        Http2FrameStream b = client.send(H2Client.get("/b"), true);
        assertEquals(2, pending.size(), "unlike HTTP/1.1 pipelining, both are with the workers at once");
        pending.remove(1).run();
        client.pump();
        assertEquals("you asked for /b", client.response(b).body.toString());
        assertNull(client.response(a));
        pending.remove(0).run();
        client.pump();
        assertEquals("you asked for /a", client.response(a).body.toString());
    }

    @Test
    void aStreamedResponseWaitsForTheClientsWindowInsteadOfPilingUp() {
        byte[] piece = new byte[16 * 1024];
        List<Object> writes = new ArrayList<>();
        RackHandler streaming = (request, response) -> {
            response.begin(200, new ResponseHeaders(), -1);
            try {
                for (int i = 0; i < 40; i++) {
                    response.write(piece, 0, piece.length);
                    writes.add(i);
                }
            } catch (IOException e) {
                writes.add(e.getMessage());
            }
            response.abort();
        };
        // The client never returns window: the server may send the 65,535 bytes of the first window, no more.
        ServerConfig config = ServerConfig.builder().writeTimeoutMillis(200).build();
        PipelineHarness server = new PipelineHarness(config, streaming, now);
        H2Client client = new H2Client(server.channel);
        Http2FrameStream stream = client.send(H2Client.get("/stream"), true);
        assertEquals("write timed out: the client stopped reading", writes.get(writes.size() - 1));
        assertTrue(writes.size() < 10, "the writer waited instead of buffering 640 KiB: " + writes);
        assertTrue(client.response(stream).body.length() <= 65_535);
    }

    @Test
    void advertisesTheConfiguredLimits() {
        ServerConfig config = ServerConfig.builder().maxConcurrentStreams(7).http2InitialWindow(20_000).maxHeaderSize(4096).build();
        H2Client client = new H2Client(new PipelineHarness(config, app, now).channel);
        client.send(H2Client.get("/"), true);
        Http2Settings settings = client.settings.get(0).settings();
        assertEquals(7L, settings.maxConcurrentStreams());
        assertEquals(20_000, settings.initialWindowSize());
        assertEquals(4096L, settings.maxHeaderListSize());
    }

    @Test
    void aHeaderListOverTheLimitGets431() {
        ServerConfig config = ServerConfig.builder().maxHeaderSize(1024).build();
        H2Client client = new H2Client(new PipelineHarness(config, app, now).channel);
        client.send(H2Client.get("/"), true); // the client learns the limit first
        Http2FrameStream stream = client.send(H2Client.get("/big").add("x-big", "b".repeat(1100)), true);
        assertEquals("431", client.response(stream).headers.status().toString());
        assertEquals(List.of("HTTP/2 GET / body=0 host=example.test"), seen);
    }

    @Test
    void filesGoOutAsDataFrames() {
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, now);
        H2Client client = new H2Client(server.channel);
        Http2FrameStream stream = client.send(H2Client.get("/file"), true);
        String body = client.response(stream).body.toString();
        assertEquals(40_003, body.length());
        assertTrue(body.endsWith("xend"));
    }

    @Test
    void drainingSendsGoAwayAndLetsTheStreamInFlightFinish() {
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, pending::add);
        H2Client client = new H2Client(server.channel);
        Http2FrameStream stream = client.send(H2Client.get("/slow"), true);
        server.state.draining = true;
        server.channel.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        client.pump();
        assertEquals(1, client.goAways.size());
        assertEquals(stream.id(), client.goAways.get(0)[0]);
        assertTrue(server.channel.isOpen(), "open while a stream is in flight");
        pending.remove(0).run();
        client.pump();
        assertEquals("you asked for /slow", client.response(stream).body.toString());
        assertFalse(server.channel.isOpen(), "closed after its last stream");
    }

    @Test
    void aClientThatHalfClosesGetsItsAnswersThenTheConnectionCloses() {
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, pending::add);
        H2Client client = new H2Client(server.channel);
        Http2FrameStream stream = client.send(H2Client.get("/last"), true);
        server.channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        client.pump();
        assertTrue(server.channel.isOpen());
        pending.remove(0).run();
        client.pump();
        assertEquals("you asked for /last", client.response(stream).body.toString());
        assertFalse(server.channel.isOpen());
    }

    @Test
    void theHttp11HeaderTimeoutDoesNotOutliveTheSwitch() {
        ServerConfig config = ServerConfig.builder().headerTimeoutMillis(1_000).keepAliveTimeoutMillis(60_000).build();
        PipelineHarness server = new PipelineHarness(config, app, pending::add);
        H2Client client = new H2Client(server.channel);
        client.send(H2Client.get("/slow"), true); // with the app past the header timeout
        server.channel.advanceTimeBy(2_000, TimeUnit.MILLISECONDS);
        server.channel.runScheduledPendingTasks();
        client.pump();
        assertTrue(server.channel.isOpen());
        assertEquals(List.of(), client.goAways);
    }

    @Test
    void anIdleConnectionClosesAfterTheKeepAliveTimeout() {
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().keepAliveTimeoutMillis(5_000).build(), app, now);
        H2Client client = new H2Client(server.channel);
        client.send(H2Client.get("/"), true);
        server.channel.advanceTimeBy(4_000, TimeUnit.MILLISECONDS);
        server.channel.runScheduledPendingTasks();
        assertTrue(server.channel.isOpen());
        server.channel.advanceTimeBy(1_500, TimeUnit.MILLISECONDS);
        server.channel.runScheduledPendingTasks();
        client.pump();
        assertFalse(server.channel.isOpen());
        assertEquals(1, client.goAways.size());
    }

    @Test
    void rapidResetsUpToTheLimitAreServedAndOneMoreEndsTheConnection() {
        for (int limit : new int[] {200, 7}) { // the default, and a configured one
            ServerConfig config = limit == 200 ? ServerConfig.builder().build() : ServerConfig.builder().http2MaxResets(limit).build();
            PipelineHarness server = new PipelineHarness(config, app, pending::add);
            H2Client client = new H2Client(server.channel);
            for (int i = 0; i < limit; i++) {
                client.reset(client.send(H2Client.get("/" + i), true));
            }
            assertTrue(server.channel.isOpen(), limit + " resets are allowed");
            assertEquals(List.of(), client.goAways);
            client.reset(client.send(H2Client.get("/over"), true));
            assertFalse(server.channel.isOpen(), "reset " + (limit + 1) + " ends the connection");
            assertEquals(Http2Error.ENHANCE_YOUR_CALM.code(), client.goAways.get(0)[1]);
            pending.clear();
        }
    }

    @Test
    void resetsTheClientMakesTheServerSendCountAgainstTheSameLimit() {
        ServerConfig config = ServerConfig.builder().http2MaxResets(5).build();
        PipelineHarness server = new PipelineHarness(config, app, pending::add);
        H2Client client = new H2Client(server.channel);
        for (int i = 0; i < 5; i++) { // MadeYouReset (CVE-2025-8671): a malformed request the server must reset
            Http2FrameStream stream = client.send(new DefaultHttp2Headers(false).method("GET").scheme("http")
                .authority("example.test").path("/" + i).add("Bad-Name", "x"), true);
            assertEquals(Http2Error.PROTOCOL_ERROR.code(), client.resets.get(stream.id()));
        }
        assertTrue(server.channel.isOpen(), "5 server-sent resets are allowed");
        client.send(new DefaultHttp2Headers(false).method("GET").scheme("http").authority("example.test").path("/over")
            .add("Bad-Name", "x"), true);
        assertFalse(server.channel.isOpen(), "the sixth ends the connection");
        assertEquals(Http2Error.ENHANCE_YOUR_CALM.code(), client.goAways.get(0)[1]);
        assertEquals(List.of(), seen);
    }

    @Test
    void upgradeH2cAnswers101AndServesTheRequestOnStreamOne() {
        NioServerSocketChannel listener = new NioServerSocketChannel();
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, now, null, listener);
        listener.unsafe().closeForcibly();
        String out = server.exchange("GET /up HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\n"
            + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n");
        assertEquals("HTTP/1.1 101 Switching Protocols", PipelineHarness.statusLine(out));
        byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        server.exchange(preface);
        server.exchange(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
        // Netty's upgrade handler collects the request whole, and says so with content-length: 0
        assertEquals(List.of("HTTP/2 GET /up body=0 host=x content-length=0"), seen);
        assertNull(server.channel.pipeline().get(PipelineNames.DECODER));
        assertNull(server.channel.pipeline().get(PipelineNames.DISPATCHER), "the HTTP/1.1 handlers have left");
    }

    @Test
    void upgradeH2cWithABodyIsServedOnHttp11() {
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, now);
        String out = server.exchange("POST /up HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\n"
            + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\nContent-Length: 2\r\n\r\nhi");
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(out));
        assertTrue(seen.get(0).startsWith("HTTP/1.1 POST /up body=2"), seen.toString());
    }

    @Test
    void aShortHttp11RequestIsNotHeldBackByThePrefaceCheck() {
        PipelineHarness server = new PipelineHarness(ServerConfig.builder().build(), app, now);
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(server.exchange("GET / HTTP/1.0\r\n\r\n")));
        assertNull(server.channel.pipeline().get(PipelineNames.PREFACE));
    }

    @Test
    void withHttp2OffThePrefaceAndUpgradeAreHttp11() {
        ServerConfig config = ServerConfig.builder().http2(false).build();
        PipelineHarness server = new PipelineHarness(config, app, now);
        String out = server.exchange("GET /up HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\n"
            + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK", PipelineHarness.statusLine(out));
        PipelineHarness other = new PipelineHarness(config, app, now);
        assertTrue(other.exchange("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").startsWith("HTTP/1.1 "));
        assertNull(other.channel.pipeline().get(PipelineNames.H2_CODEC));
    }
}
