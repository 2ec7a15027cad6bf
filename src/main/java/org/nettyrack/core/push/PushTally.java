package org.nettyrack.core.push;

import org.nettyrack.core.Upgrade;

/**
 * Where a door's push connections count their writes ({@link PushLifecycle#admit}): those
 * admitted, and those dropped (the connection closed or closing, or over its queue limit).
 * The server's counters implement it; {@link #NONE} counts nothing.
 */
public interface PushTally {
    PushTally NONE = new PushTally() {
        @Override
        public void sent(Upgrade kind) {
        }

        @Override
        public void dropped(Upgrade kind) {
        }
    };

    void sent(Upgrade kind);

    void dropped(Upgrade kind);
}
