package org.nettyrack.netty.tls;

import io.netty.handler.ssl.SslContext;
import org.nettyrack.core.config.Bind;

/**
 * One {@code ssl://} listener's TLS state: the {@link SslContext} new connections handshake
 * with. {@link #read()} reads the bind's files again and {@link #use} swaps the context in:
 * connections accepted afterwards get the new certificate, open ones keep the session they have. Contexts
 * are read by event loops and swapped by the reloading thread, hence volatile.
 */
public final class TlsListener {
    private final Bind bind;
    private volatile SslContext context;

    public TlsListener(Bind bind) throws TlsSetupException {
        this.bind = bind;
        this.context = TlsSettings.context(bind);
    }

    public SslContext context() {
        return context;
    }

    /** A context from the bind's files as they are now, not yet in use (see {@link #use}). */
    SslContext read() throws TlsSetupException {
        return TlsSettings.context(bind);
    }

    void use(SslContext fresh) {
        context = fresh;
    }
}
