package org.nettyrack.jruby;

import java.io.File;
import java.io.IOException;
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
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseSink;
import org.nettyrack.core.files.FileResponse;

/**
 * Sends a Rack body through a {@link ResponseSink}, choosing by what the body can do
 * (Rack 3 SPEC, "The Body"):
 * <ol>
 * <li>an {@code x-sendfile} header, or {@code to_path}, on a 200 whose Content-Length (if any)
 * matches the file: the file is sent by the transport, zero-copy where it can, with ranges and
 * conditional requests answered ({@link FileBodyWriter});</li>
 * <li>{@code to_ary} ("an Array whose contents are identical to that produced by calling
 * each"): the whole body is known, sent at once with its Content-Length;</li>
 * <li>{@code each}: streamed, each chunk written as it is yielded (chunked when the length
 * is unknown);</li>
 * <li>{@code call} (a streaming body, or a Rack 2 {@code rack.hijack} response header):
 * called with a {@link ResponseStream}; the response ends when it returns.</li>
 * </ol>
 * What the body can do is decided once for its class ({@link BodyShapes}), not asked per request.
 * The body is closed after it was iterated and before the response ends, so nothing of the
 * response has left while the body can still fail: the sink holds a streamed response's head
 * until the first body bytes. A HEAD request's body is not iterated at all (its answer has no
 * body; Rack::Lint even raises when one is yielded); a plain Array still gives the
 * Content-Length a GET would have.
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

    /**
     * Writes the response to {@code request}; closes the body before the end. A 200 with an
     * {@code x-sendfile} header, when the transport honours it, or with a {@code to_path} body
     * (not for HEAD) is sent as a file ({@link FileBodyWriter}).
     */
    void write(ThreadContext context, int status, ResponseHeadersReader.Result head, ResponseBody response,
               ResponseSink sink, RackRequest request, IRubyObject input) {
        ResponseHeaders headers = head.headers;
        IRubyObject body = response.value;
        String sendfile = status == 200 && sink.honoursSendfile() ? headers.get("x-sendfile") : null;
        if (sendfile != null) {
            FileResponse answer = FileBodyWriter.answer(sendfile.trim(), headers, request);
            if (answer == null) {
                throw new InvalidResponse("x-sendfile names no readable file: " + sendfile);
            }
            FileBodyWriter.write(context, answer, response, sink);
        } else if ("HEAD".equals(request.method())) {
            writeHead(context, status, headers, response, sink);
        } else if (head.hijack != null) {
            stream(context, status, headers, head.hijack, response, sink, input);
        } else if (status == 200 && response.can(BodyShapes.TO_PATH, "to_path")
            && sendFile(context, headers, response, sink, request)) {
            return;
        } else if (response.can(BodyShapes.TO_ARY, "to_ary")
            && writeArray(context, status, headers, toAry.call(context, body, body), response, sink)) {
            return;
        } else if (response.can(BodyShapes.EACH, "each")) {
            writeEach(context, status, headers, response, sink);
        } else if (response.can(BodyShapes.CALL, "call")) {
            stream(context, status, headers, body, response, sink, input);
        } else {
            throw new InvalidResponse("body responds to neither each, to_ary nor call ("
                + body.getMetaClass().getName() + ")");
        }
    }

    /** HEAD: status and headers only; the body is closed, never iterated. */
    private void writeHead(ThreadContext context, int status, ResponseHeaders headers, ResponseBody response,
                           ResponseSink sink) {
        response.close(context);
        long length = -1;
        if (response.value instanceof RubyArray) {
            RubyArray<?> chunks = (RubyArray<?>) response.value;
            length = 0;
            for (int i = 0; i < chunks.getLength(); i++) {
                IRubyObject chunk = chunks.entry(i);
                if (!(chunk instanceof RubyString)) {
                    length = -1;
                    break;
                }
                length += ((RubyString) chunk).getByteList().getRealSize();
            }
        }
        sink.begin(status, headers, length);
        sink.end();
    }

    private boolean sendFile(ThreadContext context, ResponseHeaders headers, ResponseBody response, ResponseSink sink,
                             RackRequest request) {
        IRubyObject body = response.value;
        IRubyObject path = toPath.call(context, body, body);
        if (path.isNil()) { // Rack 3.2: to_path "must return either nil or a String"; nil: use each
            return false;
        }
        File file = new File(path.convertToString().toString());
        String declared = headers.get("content-length");
        if (!file.isFile() || (declared != null && !declared.trim().equals(Long.toString(file.length())))) {
            return false;
        }
        FileResponse answer = FileBodyWriter.answer(file.getPath(), headers, request);
        if (answer == null) {
            return false;
        }
        FileBodyWriter.write(context, answer, response, sink);
        return true;
    }

    private boolean writeArray(ThreadContext context, int status, ResponseHeaders headers, IRubyObject ary,
                               ResponseBody response, ResponseSink sink) {
        if (!(ary instanceof RubyArray)) {
            return false;
        }
        response.close(context);
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

    private void writeEach(ThreadContext context, int status, ResponseHeaders headers, ResponseBody response,
                           ResponseSink sink) {
        IRubyObject body = response.value;
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
        response.close(context);
        sink.end();
    }

    private void stream(ThreadContext context, int status, ResponseHeaders headers, IRubyObject callable,
                        ResponseBody response, ResponseSink sink, IRubyObject input) {
        sink.begin(status, headers, -1);
        ResponseStream stream = streams.open(context, sink, input);
        try {
            call.call(context, callable, callable, stream);
        } finally {
            stream.finish();
        }
        response.close(context);
        sink.end();
    }

    private static ByteList chunk(IRubyObject chunk) {
        if (!(chunk instanceof RubyString)) {
            throw new InvalidResponse("body yielded a non-String (" + chunk.getMetaClass().getName() + ")");
        }
        return ((RubyString) chunk).getByteList();
    }
}
