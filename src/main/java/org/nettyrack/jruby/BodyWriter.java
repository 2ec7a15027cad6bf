package org.nettyrack.jruby;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import org.jruby.RubyArray;
import org.jruby.RubyString;
import org.jruby.runtime.Block;
import org.jruby.runtime.CallBlock;
import org.jruby.runtime.Signature;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.runtime.callsite.CachingCallSite;
import org.jruby.runtime.callsite.NormalCachingCallSite;
import org.jruby.util.ByteList;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;

/**
 * Sends a Rack body through a {@link ResponseSink}, choosing by what the body can do
 * (Rack 3 SPEC, "The Body"):
 * <ol>
 * <li>{@code to_path}, on a 200 whose Content-Length (if any) matches the file: the file is
 * sent by the transport, zero-copy where it can;</li>
 * <li>{@code to_ary} ("an Array whose contents are identical to that produced by calling
 * each"): the whole body is known, sent at once with its Content-Length;</li>
 * <li>{@code each}: streamed, each chunk written as it is yielded (chunked when the length
 * is unknown);</li>
 * <li>{@code call} (a streaming body, or a Rack 2 {@code rack.hijack} response header):
 * called with a {@link ResponseStream}; the response ends when it returns.</li>
 * </ol>
 * Closing the body is the caller's job, so it happens whatever went wrong here.
 */
final class BodyWriter {
    private final CachingCallSite toAry = new NormalCachingCallSite("to_ary");
    private final CachingCallSite toPath = new NormalCachingCallSite("to_path");
    private final CachingCallSite each = new NormalCachingCallSite("each");
    private final CachingCallSite call = new NormalCachingCallSite("call");
    private final ResponseStream.Factory streams;

    BodyWriter(ResponseStream.Factory streams) {
        this.streams = streams;
    }

    void write(ThreadContext context, int status, ResponseHeadersReader.Result head, IRubyObject body,
               ResponseSink sink) {
        ResponseHeaders headers = head.headers;
        if (head.hijack != null) {
            stream(context, status, headers, head.hijack, sink);
        } else if (status == 200 && body.respondsTo("to_path") && sendFile(context, headers, body, sink)) {
            return;
        } else if (body.respondsTo("to_ary") && writeArray(context, status, headers, toAry.call(context, body, body), sink)) {
            return;
        } else if (body.respondsTo("each")) {
            writeEach(context, status, headers, body, sink);
        } else if (body.respondsTo("call")) {
            stream(context, status, headers, body, sink);
        } else {
            throw new InvalidResponse("body responds to neither each, to_ary nor call ("
                + body.getMetaClass().getName() + ")");
        }
    }

    private boolean sendFile(ThreadContext context, ResponseHeaders headers, IRubyObject body, ResponseSink sink) {
        File file = new File(toPath.call(context, body, body).convertToString().toString());
        String declared = headers.get("content-length");
        if (!file.isFile() || (declared != null && !declared.trim().equals(Long.toString(file.length())))) {
            return false;
        }
        Path path = file.toPath();
        long length = file.length();
        sink.begin(200, headers, length);
        try {
            sink.sendFile(path, 0, length);
        } catch (IOException e) {
            throw new ClientGone(e);
        }
        sink.end();
        return true;
    }

    private boolean writeArray(ThreadContext context, int status, ResponseHeaders headers, IRubyObject ary, ResponseSink sink) {
        if (!(ary instanceof RubyArray)) {
            return false;
        }
        RubyArray<?> chunks = (RubyArray<?>) ary;
        int count = chunks.getLength();
        if (count == 1) {
            ByteList bytes = chunk(chunks.entry(0));
            sink.respond(status, headers, bytes.getUnsafeBytes(), bytes.getBegin(), bytes.getRealSize());
            return true;
        }
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += chunk(chunks.entry(i)).getRealSize();
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new InvalidResponse("array body larger than 2 GB");
        }
        byte[] all = new byte[(int) total];
        int at = 0;
        for (int i = 0; i < count; i++) {
            ByteList bytes = chunk(chunks.entry(i));
            System.arraycopy(bytes.getUnsafeBytes(), bytes.getBegin(), all, at, bytes.getRealSize());
            at += bytes.getRealSize();
        }
        sink.respond(status, headers, all, 0, all.length);
        return true;
    }

    private void writeEach(ThreadContext context, int status, ResponseHeaders headers, IRubyObject body, ResponseSink sink) {
        sink.begin(status, headers, -1);
        Block block = CallBlock.newCallClosure(context, body, Signature.ONE_ARGUMENT, (ctx, args, blk) -> {
            ByteList bytes = chunk(args.length > 0 ? args[0] : ctx.nil);
            try {
                sink.write(bytes.getUnsafeBytes(), bytes.getBegin(), bytes.getRealSize());
            } catch (IOException e) {
                throw new ClientGone(e);
            }
            return ctx.nil;
        });
        each.call(context, body, body, block);
        sink.end();
    }

    private void stream(ThreadContext context, int status, ResponseHeaders headers, IRubyObject callable, ResponseSink sink) {
        sink.begin(status, headers, -1);
        ResponseStream stream = streams.open(context, sink);
        try {
            call.call(context, callable, callable, stream);
        } finally {
            stream.finish();
        }
        sink.end();
    }

    private static ByteList chunk(IRubyObject chunk) {
        if (!(chunk instanceof RubyString)) {
            throw new InvalidResponse("body yielded a non-String (" + chunk.getMetaClass().getName() + ")");
        }
        return ((RubyString) chunk).getByteList();
    }
}
