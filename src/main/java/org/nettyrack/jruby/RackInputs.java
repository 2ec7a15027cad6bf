package org.nettyrack.jruby;

import org.jcodings.specific.ASCIIEncoding;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyString;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;
import org.nettyrack.core.RequestBody;

/**
 * Makes {@code rack.input} from a fully read body: a StringIO over the bytes when the body is
 * in memory, a File opened read-only in binary mode when it was spooled. Both are rewindable
 * and answer gets, read, each and rewind, as Rack 2 requires (Rack 3 asks less).
 */
final class RackInputs {
    private final Ruby runtime;
    private final RubyClass stringIO;
    private final RubyString binaryRead;

    RackInputs(Ruby runtime) {
        this.runtime = runtime;
        runtime.getLoadService().require("stringio");
        this.stringIO = runtime.getClass("StringIO");
        this.binaryRead = RubyStrings.frozen(runtime, "rb");
    }

    IRubyObject open(ThreadContext context, RequestBody body) {
        if (body.inMemory()) {
            ByteList bytes = new ByteList(body.bytes(), 0, (int) body.length(), ASCIIEncoding.INSTANCE, false);
            return stringIO.newInstance(context, RubyString.newString(runtime, bytes), org.jruby.runtime.Block.NULL_BLOCK);
        }
        IRubyObject path = RubyString.newString(runtime, body.file().toString());
        return runtime.getFile().callMethod(context, "open", new IRubyObject[] {path, binaryRead});
    }

    /** Closes a spooled body's File so the transport can delete it. */
    void close(ThreadContext context, IRubyObject input, RequestBody body) {
        if (!body.inMemory() && input != null) {
            input.callMethod(context, "close");
        }
    }
}
