package org.nettyrack.core.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nettyrack.core.ErrorLog;

/** An accepted upgrade that cannot start: the status, and on_close run anyway. */
class UpgradeRefusalTest {
    @Test
    void aStoppingServerAnswers503AndABadHandshake400() {
        assertEquals(UpgradeRefusal.STOPPING, UpgradeRefusal.before(true));
        assertEquals(503, UpgradeRefusal.STOPPING.status());
        assertNull(UpgradeRefusal.before(false), "a running server tries the handshake");
        assertEquals(400, UpgradeRefusal.BAD_HANDSHAKE.status());
    }

    @Test
    void onCloseRunsOnceOnAWorkerWithoutOnOpen() {
        ManualWorkers workers = new ManualWorkers();
        RecordingEndpoint endpoint = new RecordingEndpoint();
        List<Boolean> onWorker = new java.util.ArrayList<>();
        endpoint.hook = event -> onWorker.add(workers.running());
        UpgradeRefusal.STOPPING.closeUnopened(workers, endpoint, ErrorLog.stderr());
        assertEquals(List.of(), endpoint.events, "not on the caller's thread");
        workers.runAll();
        assertEquals(List.of("close"), endpoint.events);
        assertEquals(List.of(true), onWorker);
    }
}
