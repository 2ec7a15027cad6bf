package org.nettyrack.jruby;

import java.io.IOException;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyObject;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.nettyrack.core.ResponseSink;

/**
 * {@code Nettyrack::EarlyHints}: {@code env['rack.early_hints']}, as Puma provides it, set
 * when the transport can send one ({@link ResponseSink#acceptsEarlyHints}). {@code
 * call(headers)} takes a header hash in the shape of response headers (Rails'
 * {@code send_early_hints} passes {@code {"link" => "</style.css>; rel=preload; as=style"}})
 * and sends them as a 103 response before the final one; once that has begun, it does nothing.
 */
@JRubyClass(name = "Nettyrack::EarlyHints")
public final class EarlyHints extends RubyObject {
    private static final long serialVersionUID = 1L;

    private transient ResponseSink sink;

    EarlyHints(Ruby runtime, RubyClass type) {
        super(runtime, type);
    }

    static EarlyHints open(Ruby runtime, ResponseSink sink) {
        EarlyHints hints = new EarlyHints(runtime, NettyrackLibrary.earlyHintsClass(runtime));
        hints.sink = sink;
        return hints;
    }

    @JRubyMethod
    public IRubyObject call(ThreadContext context, IRubyObject headers) {
        if (sink == null) {
            return context.nil;
        }
        ResponseHeadersReader.Result read;
        try {
            read = ResponseHeadersReader.read(context, headers);
        } catch (InvalidResponse e) {
            throw context.runtime.newArgumentError("early hints: " + e.getMessage());
        }
        try {
            sink.earlyHints(read.headers);
        } catch (IOException e) {
            throw context.runtime.newIOError("client gone: " + e.getMessage());
        }
        return context.nil;
    }
}
