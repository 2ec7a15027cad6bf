package org.nettyrack.netty.listen;

import io.netty.channel.Channel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Caps the open connections of one server ({@code --max-connections}). At the cap the
 * listeners stop accepting: new connections wait in the kernel's accept backlog and are taken
 * as soon as a connection closes. Netty stops accepting only after one more batch, so a few
 * connections may be accepted past the cap; they are parked, not read from, until a slot frees
 * (their header timeout runs meanwhile). Accepting resumes once nothing is parked and a slot
 * is free.
 */
public final class ConnectionLimit {
    private final int max;
    private final List<Channel> listeners = new ArrayList<>();
    private final ArrayDeque<Channel> parked = new ArrayDeque<>();
    private int open;
    private boolean paused;

    public ConnectionLimit(int max) {
        this.max = max;
    }

    synchronized void listen(Channel listener) {
        listeners.add(listener);
        listener.config().setAutoRead(!paused);
    }

    /** Forgets the listeners (handed over to another process): the cap no longer turns them on or off. */
    synchronized void unlisten() {
        listeners.clear();
    }

    /** A connection was accepted: counted, or parked (not read from) while the server is at the cap. */
    public synchronized void accepted(Channel connection) {
        connection.closeFuture().addListener(f -> closed(connection));
        if (open < max) {
            open++;
            if (open >= max) {
                pause(true);
            }
        } else {
            parked.add(connection);
            connection.config().setAutoRead(false);
        }
    }

    synchronized int open() {
        return open;
    }

    synchronized int parked() {
        return parked.size();
    }

    private synchronized void closed(Channel connection) {
        if (parked.remove(connection)) {
            return;
        }
        Channel next = parked.poll();
        if (next != null) {
            next.config().setAutoRead(true); // takes the slot just freed
            return;
        }
        open--;
        if (paused && open < max) {
            pause(false);
        }
    }

    private void pause(boolean pause) {
        paused = pause;
        for (Channel listener : listeners) {
            listener.config().setAutoRead(!pause);
        }
    }
}
