package org.nettyrack.jruby;

import java.io.IOException;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyObject;
import org.jruby.RubyString;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;
import org.nettyrack.core.ResponseSink;

/**
 * {@code Nettyrack::ResponseStream}: the stream handed to a Rack 3 streaming body
 * ({@code body.call(stream)}) or a Rack 2 {@code rack.hijack} response header. The SPEC asks
 * for read, write, {@code <<}, flush, close, close_read, close_write and closed?. Reads give
 * the request body ({@code rack.input}'s {@code read}, IO semantics: {@code ""} or nil at its
 * end); the server has read the whole body before the application runs, so a read never waits
 * for the client. Writes go straight to the response and block while the client is not reading.
 * For a stream that switches protocols, both ways live, see {@code rack.protocol} ({@link RackHijack}).
 */
@JRubyClass(name = "Nettyrack::ResponseStream")
public final class ResponseStream extends RubyObject {
    private static final long serialVersionUID = 1L;

    /** Makes streams of the Ruby class defined by {@link NettyrackLibrary}. */
    static final class Factory {
        private final RubyClass type;

        Factory(RubyClass type) {
            this.type = type;
        }

        /** input: the request's {@code rack.input}, which reads come from; null: reads see end of input. */
        ResponseStream open(ThreadContext context, ResponseSink sink, IRubyObject input) {
            return new ResponseStream(context.runtime, type, sink, input);
        }
    }

    private transient ResponseSink sink;
    private transient IRubyObject input;
    private boolean closed;
    private boolean readClosed;

    ResponseStream(Ruby runtime, RubyClass type) {
        super(runtime, type);
    }

    private ResponseStream(Ruby runtime, RubyClass type, ResponseSink sink, IRubyObject input) {
        super(runtime, type);
        this.sink = sink;
        this.input = input;
    }

    @JRubyMethod
    public IRubyObject write(ThreadContext context, IRubyObject data) {
        RubyString string = data.asString();
        ByteList bytes = string.getByteList();
        if (closed || sink == null) {
            throw context.runtime.newIOError("closed stream");
        }
        try {
            sink.write(bytes.getUnsafeBytes(), bytes.getBegin(), bytes.getRealSize());
        } catch (IOException e) {
            closed = true;
            throw context.runtime.newIOError("client gone: " + e.getMessage());
        }
        return context.runtime.newFixnum(bytes.getRealSize());
    }

    @JRubyMethod(name = "<<")
    public IRubyObject append(ThreadContext context, IRubyObject data) {
        write(context, data);
        return this;
    }

    @JRubyMethod
    public IRubyObject flush(ThreadContext context) {
        return this;
    }

    @JRubyMethod(optional = 2)
    public IRubyObject read(ThreadContext context, IRubyObject[] args) {
        if (readClosed) {
            throw context.runtime.newIOError("not opened for reading");
        }
        if (input == null) {
            return args.length > 0 && !args[0].isNil() ? context.nil : context.runtime.newString();
        }
        return input.callMethod(context, "read", args);
    }

    @JRubyMethod(name = {"close", "close_write"})
    public IRubyObject close(ThreadContext context) {
        closed = true;
        return context.nil;
    }

    @JRubyMethod
    public IRubyObject close_read(ThreadContext context) {
        readClosed = true;
        return context.nil;
    }

    @JRubyMethod(name = "closed?")
    public IRubyObject closed_p(ThreadContext context) {
        return context.runtime.newBoolean(closed);
    }

    /** Called by the server when the body's call returned: later writes raise IOError. */
    void finish() {
        closed = true;
    }
}
