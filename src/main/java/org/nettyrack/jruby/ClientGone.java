package org.nettyrack.jruby;

import java.io.IOException;

/** The client went away (or stopped reading) while the body was being written. */
final class ClientGone extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ClientGone(IOException cause) {
        super(cause.getMessage(), cause);
    }
}
