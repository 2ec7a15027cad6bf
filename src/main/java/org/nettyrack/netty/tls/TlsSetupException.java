package org.nettyrack.netty.tls;

/**
 * A TLS listener that cannot be set up from its bind parameters: a file missing or unreadable,
 * a wrong keystore password, a key that does not match its certificate, an unknown verify_mode.
 * The message is one sentence naming the file or parameter; the launcher prints it and exits 1.
 */
public final class TlsSetupException extends Exception {
    private static final long serialVersionUID = 1L;

    public TlsSetupException(String message) {
        super(message);
    }

    public TlsSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
