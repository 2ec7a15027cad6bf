package org.nettyrack.netty.tls;

import io.netty.handler.ssl.SslContext;
import java.util.LinkedHashMap;
import java.util.Map;
import org.nettyrack.core.config.Bind;
import org.nettyrack.core.config.ServerConfig;

/**
 * The TLS state of one server's {@code ssl://} listeners, by bind ({@link TlsListener} each):
 * read from their files when the server opens, and swapped all at once by {@link #reload}
 * (SIGHUP), or not at all when any listener's files no longer make a TLS setup.
 */
public final class TlsListeners {
    private final Map<Bind, TlsListener> byBind = new LinkedHashMap<>();

    /** Reads the files of every {@code ssl://} bind of config; throws saying which cannot be used. */
    public TlsListeners(ServerConfig config) throws TlsSetupException {
        for (Bind bind : config.listen().binds()) {
            if ("ssl".equals(bind.scheme())) {
                byBind.put(bind, new TlsListener(bind));
            }
        }
    }

    /** The bind's TLS state, or null for a cleartext one. */
    public TlsListener of(Bind bind) {
        return byBind.get(bind);
    }

    /**
     * Checks that every {@code ssl://} listener of config can be set up from its files, before a
     * server is built (the launcher calls it ahead of loading the application).
     */
    public static void check(ServerConfig config) throws TlsSetupException {
        for (Bind bind : config.listen().binds()) {
            if ("ssl".equals(bind.scheme())) {
                TlsSettings.context(bind);
            }
        }
    }

    /**
     * Reads every TLS listener's files again and, when all of them make a TLS setup, serves new
     * connections with it; open connections keep theirs. Otherwise throws, every listener
     * keeping the setup it had. Returns the number of TLS listeners reloaded.
     */
    public synchronized int reload() throws TlsSetupException {
        Map<TlsListener, SslContext> fresh = new LinkedHashMap<>();
        for (TlsListener listener : byBind.values()) {
            fresh.put(listener, listener.read());
        }
        fresh.forEach(TlsListener::use);
        return fresh.size();
    }

    /** The TLS implementation serving config's ssl:// listeners ({@link TlsEngine}), or null without any. */
    public static String engine(ServerConfig config) {
        return config.listen().binds().stream().anyMatch(b -> "ssl".equals(b.scheme())) ? TlsEngine.description() : null;
    }
}
