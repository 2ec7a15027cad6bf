package org.nettyrack.jruby;

/** The application returned something that is not a Rack response; it gets a 500. */
final class InvalidResponse extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidResponse(String message) {
        super(message);
    }
}
