package org.nettyrack.netty.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.EchoHandler;
import org.nettyrack.netty.PipelineHarness;
import org.nettyrack.netty.pipeline.ConnectionEvent;

/** Requests become complete {@code RackRequest}s, in order, one per connection at a time. */
class RackDispatcherTest {
    private final EchoHandler app = new EchoHandler();

    @Test
    void keepsTheConnectionAliveBetweenRequests() {
        PipelineHarness h = new PipelineHarness(app);
        assertTrue(h.exchange("GET /a HTTP/1.1\r\nHost: x\r\n\r\n").endsWith("GET /a 0"));
        assertTrue(h.exchange("GET /b HTTP/1.1\r\nHost: x\r\n\r\n").endsWith("GET /b 0"));
        assertTrue(h.channel.isOpen());
    }

    @Test
    void answersPipelinedRequestsInOrder() {
        PipelineHarness h = new PipelineHarness(app);
        String out = h.exchange("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(out.indexOf("GET /1 0") < out.indexOf("GET /2 0") && out.indexOf("GET /2 0") < out.indexOf("GET /3 0"), out);
        assertEquals(List.of("GET /1 0", "GET /2 0", "GET /3 0"), app.seen);
        assertFalse(h.channel.isOpen(), "closed after the Connection: close request");
    }

    @Test
    void queuesPipelinedRequestsWhileOneIsWithTheApp() {
        List<Runnable> pending = new ArrayList<>();
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().build(), app, pending::add);
        h.exchange("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals(1, pending.size(), "only one request per connection goes to the workers");
        pending.remove(0).run();
        h.channel.runPendingTasks();
        assertEquals(1, pending.size(), "the second goes once the first is answered");
        pending.remove(0).run();
        assertEquals(List.of("GET /1 0", "GET /2 0"), app.seen);
    }

    @Test
    void answersARefusedPipelinedRequestAfterTheAnswersBeforeIt() {
        List<Runnable> pending = new ArrayList<>();
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().build(), app, pending::add);
        String early = h.exchange("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\nGET\r\n\r\n");
        assertEquals("", early, "nothing may overtake the answer to /1");
        pending.remove(0).run();
        h.channel.runPendingTasks();
        pending.remove(0).run();
        String out = h.output();
        assertTrue(out.indexOf("GET /1 0") < out.indexOf("GET /2 0") && out.indexOf("GET /2 0") < out.indexOf("400 Bad Request"), out);
        assertFalse(h.channel.isOpen());
    }

    @Test
    void sendsContinueBeforeTheBody() {
        PipelineHarness h = new PipelineHarness(app);
        String interim = h.exchange("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
        assertEquals("HTTP/1.1 100 Continue", PipelineHarness.statusLine(interim));
        assertTrue(h.exchange("hello").endsWith("POST /up 5"));
    }

    @Test
    void answers503WhenNoWorkerCanTakeTheRequest() {
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().build(), app, task -> false);
        String out = h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertEquals("HTTP/1.1 503 Service Unavailable", PipelineHarness.statusLine(out));
        assertTrue(app.seen.isEmpty());
        assertTrue(h.channel.isOpen(), "a busy server keeps the connection");
    }

    @Test
    void answersHttp10AndClosesUnlessAskedToKeepAlive() {
        PipelineHarness closing = new PipelineHarness(app);
        assertTrue(closing.exchange("GET / HTTP/1.0\r\n\r\n").contains("GET / 0"));
        assertFalse(closing.channel.isOpen());

        PipelineHarness keeping = new PipelineHarness(app);
        String out = keeping.exchange("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
        assertTrue(out.toLowerCase().contains("connection: keep-alive"), out);
        assertTrue(keeping.channel.isOpen());
    }

    @Test
    void finishesTheCurrentResponseBeforeDrainingCloses() {
        List<Runnable> pending = new ArrayList<>();
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().build(), app, pending::add);
        h.exchange("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        h.state.draining = true;
        h.channel.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        assertTrue(h.channel.isOpen(), "in flight: not yet");
        pending.remove(0).run();
        String out = h.output();
        assertTrue(out.toLowerCase().contains("connection: close") && out.endsWith("GET / 0"), out);
        assertFalse(h.channel.isOpen());
        assertEquals(0, h.state.activeRequests());
    }

    @Test
    void aKeptAliveAnswerSentBeforeTheDrainLetsThePipelinedRequestsThrough() {
        List<Runnable> pending = new ArrayList<>();
        PipelineHarness h = new PipelineHarness(ServerConfig.builder().build(), app, pending::add);
        h.exchange("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n");
        pending.remove(0).run(); // answered with keep-alive: the client may send more
        h.state.draining = true;
        h.channel.pipeline().fireUserEventTriggered(ConnectionEvent.DRAIN);
        h.channel.runPendingTasks();
        pending.remove(0).run();
        String out = h.output();
        assertTrue(out.contains("connection: close") && out.endsWith("GET /2 0"), out);
        assertFalse(h.channel.isOpen());
    }
}
