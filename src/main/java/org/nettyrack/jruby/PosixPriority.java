package org.nettyrack.jruby;

import org.jruby.Ruby;
import org.nettyrack.core.ThreadNice;

/** setpriority(2) through the runtime's POSIX layer (jnr-posix), for {@link ThreadNice}. */
public final class PosixPriority implements ThreadNice.SetPriority {
    private static final int PRIO_PROCESS = 0; // with a thread id, Linux sets that thread alone

    private final Ruby runtime;

    public PosixPriority(Ruby runtime) {
        this.runtime = runtime;
    }

    @Override
    public int setpriority(int tid, int nice) {
        return runtime.getPosix().setpriority(PRIO_PROCESS, tid, nice) == 0 ? 0 : runtime.getPosix().errno();
    }
}
