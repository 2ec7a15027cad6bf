package org.nettyrack.core.push;

import org.nettyrack.core.ErrorLog;
import org.nettyrack.core.PushEndpoint;
import org.nettyrack.core.Workers;

/**
 * An upgrade the application accepted that the connection cannot make, and what the client
 * gets instead. While the server drains (or the client has closed its sending half), nothing
 * would ever tell a new push connection to close, so it is not opened: 503, and the client
 * tries again elsewhere. A handshake the transport cannot complete gets 400. Either way the
 * endpoint's {@code on_close} still runs, exactly once and without {@code on_open}, on a
 * worker like every callback ({@link #closeUnopened}).
 */
public enum UpgradeRefusal {
    STOPPING(503),
    BAD_HANDSHAKE(400);

    private final int status;

    UpgradeRefusal(int status) {
        this.status = status;
    }

    /** The HTTP status the client is answered with. */
    public int status() {
        return status;
    }

    /** Checked before the switch: {@link #STOPPING} when the server or the client is ending, else null. */
    public static UpgradeRefusal before(boolean stopping) {
        return stopping ? STOPPING : null;
    }

    /** Queues the endpoint's {@code on_close}; the connection it is given is null. */
    public void closeUnopened(Workers workers, PushEndpoint endpoint, ErrorLog errorLog) {
        new PushSession(workers, endpoint, null, () -> { }, errorLog).closed();
    }
}
