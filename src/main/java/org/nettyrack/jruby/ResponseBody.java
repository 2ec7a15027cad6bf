package org.nettyrack.jruby;

import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.runtime.callsite.CachingCallSite;

/**
 * One response's body, what it can do ({@link BodyShapes}, decided once for its class), and
 * its {@code close}, which runs exactly once (Rack SPEC: "If the Body responds to close, it will
 * be called after iteration"). {@link BodyWriter} closes it after iterating and before the
 * response's last bytes leave, so a {@code close} that raises is still an application error
 * with a proper 500 when nothing was sent yet; {@link RackBridge} closes it on the way out when
 * anything failed earlier.
 */
final class ResponseBody {
    final IRubyObject value;
    private final int shape;
    private final CachingCallSite closeSite;
    private boolean closed;

    ResponseBody(IRubyObject value, int shape, CachingCallSite closeSite) {
        this.value = value;
        this.shape = shape;
        this.closeSite = closeSite;
    }

    /** Whether the body responds to the method of {@code bit} ({@link BodyShapes}), named {@code name}. */
    boolean can(int bit, String name) {
        return BodyShapes.can(value, shape, bit, name);
    }

    /** Calls the body's close, once; raises what close raised. */
    void close(ThreadContext context) {
        if (closed) {
            return;
        }
        closed = true;
        if (can(BodyShapes.CLOSE, "close")) {
            closeSite.call(context, value, value);
        }
    }

    boolean closed() {
        return closed;
    }
}
