package org.nettyrack.core.push;

import org.nettyrack.core.Upgrade;

/**
 * Where a door's push connections count their writes ({@link PushLifecycle#admit}): those
 * admitted, those dropped (the connection closed or closing, or over its queue limit), and
 * the connections closed because a write passed the limit (a client too slow for what it is
 * sent). The server's counters implement it; {@link #NONE} counts nothing.
 */
public interface PushTally {
    PushTally NONE = new PushTally() {
        @Override
        public void sent(Upgrade kind) {
        }

        @Override
        public void dropped(Upgrade kind) {
        }

        @Override
        public void closedSlow(Upgrade kind) {
        }
    };

    void sent(Upgrade kind);

    void dropped(Upgrade kind);

    /** A write past the queue limit closes the connection: once per connection. */
    void closedSlow(Upgrade kind);
}
