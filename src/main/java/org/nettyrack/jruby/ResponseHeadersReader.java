package org.nettyrack.jruby;

import org.jruby.RubyArray;
import org.jruby.RubyHash;
import org.jruby.RubyString;
import org.jruby.runtime.Block;
import org.jruby.runtime.CallBlock;
import org.jruby.runtime.Signature;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.nettyrack.core.ResponseHeaders;

/**
 * Reads the headers of a Rack response into {@link ResponseHeaders}. Rack 3: "The headers
 * must be a unfrozen Hash ... header values must be either a String instance, or an Array of
 * String instances"; Rack 2: values are Strings, several values separated by "\n". Both forms
 * are accepted, so several {@code set-cookie} values stay separate fields. Keys starting with
 * "rack." are for the server ({@code rack.hijack}, {@code rack.protocol}) and are not sent. A name that is not
 * a token, or a value holding CR, LF or NUL, is an application error (header injection).
 */
final class ResponseHeadersReader {
    /** What the reader found besides plain fields. */
    static final class Result {
        final ResponseHeaders headers = new ResponseHeaders();
        IRubyObject hijack;
        /** Rack 3.1's {@code rack.protocol} response header: the protocol the app switches to. */
        IRubyObject protocol;
    }

    private ResponseHeadersReader() {
    }

    static Result read(ThreadContext context, IRubyObject headers) {
        Result result = new Result();
        if (headers instanceof RubyHash) {
            ((RubyHash) headers).visitAll(context, new RubyHash.VisitorWithState<Result>() {
                @Override
                public void visit(ThreadContext ctx, RubyHash self, IRubyObject key, IRubyObject value, int index, Result r) {
                    field(ctx, r, key, value);
                }
            }, result);
        } else {
            Block block = CallBlock.newCallClosure(context, headers, Signature.TWO_ARGUMENTS,
                (ctx, args, blk) -> {
                    IRubyObject key = args.length > 0 ? args[0] : ctx.nil;
                    IRubyObject value = args.length > 1 ? args[1] : ctx.nil;
                    if (args.length == 1 && key instanceof RubyArray) {
                        value = ((RubyArray<?>) key).entry(1);
                        key = ((RubyArray<?>) key).entry(0);
                    }
                    field(ctx, result, key, value);
                    return ctx.nil;
                });
            headers.callMethod(context, "each", IRubyObject.NULL_ARRAY, block);
        }
        return result;
    }

    private static void field(ThreadContext context, Result result, IRubyObject key, IRubyObject value) {
        String name = RubyStrings.latin1(key.convertToString());
        if (name.startsWith("rack.")) {
            if (name.equals("rack.hijack")) {
                result.hijack = value;
            } else if (name.equals("rack.protocol")) {
                result.protocol = value;
            }
            return;
        }
        if (!isToken(name)) {
            throw new InvalidResponse("invalid header name " + inspect(name));
        }
        if (value instanceof RubyArray) {
            RubyArray<?> values = (RubyArray<?>) value;
            for (int i = 0; i < values.getLength(); i++) {
                addLines(result.headers, name, values.entry(i));
            }
        } else {
            addLines(result.headers, name, value);
        }
    }

    private static void addLines(ResponseHeaders headers, String name, IRubyObject value) {
        if (!(value instanceof RubyString)) {
            throw new InvalidResponse("header " + name + " has a non-String value (" + value.getMetaClass().getName() + ")");
        }
        String text = RubyStrings.latin1((RubyString) value);
        int from = 0;
        while (true) {
            int nl = text.indexOf('\n', from);
            String line = nl < 0 ? text.substring(from) : text.substring(from, nl);
            if (line.indexOf('\r') >= 0 || line.indexOf('\0') >= 0) {
                throw new InvalidResponse("header " + name + " has a value with CR or NUL");
            }
            headers.add(name, line);
            if (nl < 0) {
                return;
            }
            from = nl + 1;
        }
    }

    private static boolean isToken(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 0x7f || "()<>@,;:\\\"/[]?={}".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    private static String inspect(String s) {
        return "\"" + s.replace("\r", "\\r").replace("\n", "\\n") + "\"";
    }
}
