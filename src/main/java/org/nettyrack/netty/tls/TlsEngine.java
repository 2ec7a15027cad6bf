package org.nettyrack.netty.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;

/**
 * Which TLS implementation serves {@code ssl://} listeners: OpenSSL (BoringSSL, from
 * netty-tcnative-boringssl-static) when its native library loads on this platform, the JDK's
 * own engine otherwise. Both do TLS 1.2 and 1.3 with ALPN; OpenSSL handshakes faster. The boot
 * line names the one in use ({@link #description()}).
 */
final class TlsEngine {
    private TlsEngine() {
    }

    static SslProvider provider() {
        return OpenSsl.isAvailable() && SslProvider.isAlpnSupported(SslProvider.OPENSSL)
            ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /** "OpenSSL (BoringSSL)", or "JDK" with the reason OpenSSL did not load. */
    static String description() {
        if (provider() == SslProvider.OPENSSL) {
            return "OpenSSL (" + OpenSsl.versionString() + ")";
        }
        Throwable why = OpenSsl.unavailabilityCause();
        return "JDK" + (why == null ? "" : " (no OpenSSL: " + why.getClass().getSimpleName() + ")");
    }
}
