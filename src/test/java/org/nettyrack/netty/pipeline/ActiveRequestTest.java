package org.nettyrack.netty.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.config.ServerConfig;

/** A request counts as active from the token's taking to its first release, never below. */
class ActiveRequestTest {
    private final ServerState state = new ServerState(ServerConfig.builder().build(), (RackHandler) (request, sink) -> { },
        task -> true);

    @Test
    void aTokenCountsUntilReleasedAndASecondReleaseDoesNothing() {
        ActiveRequest first = state.activeRequest();
        ActiveRequest second = state.activeRequest();
        assertEquals(2, state.activeRequests());
        first.release();
        first.release();
        assertEquals(1, state.activeRequests(), "the holder that releases twice (push close after a refusal) counts once");
        second.release();
        assertEquals(0, state.activeRequests());
    }
}
