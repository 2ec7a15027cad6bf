package org.nettyrack.netty;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.config.ServerConfig;
import org.nettyrack.netty.pipeline.ActiveRequest;
import org.nettyrack.netty.pipeline.ServerState;

/**
 * NettyServer.stop() reports whether everything in flight finished. A connection leaves the
 * channel group when its close future completes, and Netty runs its channelInactive (where a
 * push connection stops counting) in a task queued after that, so stop() waits for the count
 * too, not only for the group to empty (before, a WebSocket closed just before TERM could be
 * reported as "cut off").
 */
class NettyServerStopTest {
    private static final RackHandler APP = (request, sink) -> sink.respond(200, new ResponseHeaders(), new byte[0], 0, 0);
    private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void shutDown() {
        later.shutdownNow();
    }

    private static NettyServer start(long shutdownTimeoutMillis) throws Exception {
        NettyServer server = new NettyServer(ServerConfig.builder().bind("127.0.0.1", 0).threads(1, 1)
            .shutdownTimeoutMillis(shutdownTimeoutMillis).build(), APP);
        server.start();
        return server;
    }

    @Test
    void stopWaitsForACountStillSettlingAfterTheConnectionsLeft() throws Exception {
        NettyServer server = start(10_000);
        ServerState state = server.state();
        ActiveRequest push = state.activeRequest(); // a push connection whose channelInactive has not run yet
        later.schedule(push::release, 300, TimeUnit.MILLISECONDS);
        assertTrue(server.stop(), "finished: the count reached zero within the shutdown timeout");
    }

    @Test
    void aCountThatNeverSettlesIsReportedOnceTheShutdownTimeoutIsOver() throws Exception {
        NettyServer server = start(300);
        server.state().activeRequest(); // a request still running in the application, never released
        assertFalse(server.stop());
    }
}
