package org.nettyrack.jruby;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyException;
import org.jruby.RubyString;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * Where application failures are written: {@code rack.errors} (the server's error stream),
 * one report per failure with the Ruby class, message and backtrace; stderr if that stream
 * itself fails. Used by the request path and by push callbacks alike.
 */
final class AppErrors {
    private final Ruby runtime;
    private final IRubyObject errors;

    AppErrors(Ruby runtime, IRubyObject errors) {
        this.runtime = runtime;
        this.errors = errors;
    }

    /** Writes "what: report" for the failure. */
    void report(ThreadContext context, String what, RuntimeException e) {
        log(context, what + ": " + describe(context, e));
    }

    void log(ThreadContext context, String line) {
        try {
            errors.callMethod(context, "write", RubyString.newString(runtime, line + "\n"));
            errors.callMethod(context, "flush");
        } catch (RaiseException ignored) {
            System.err.println(line);
        }
    }

    /** A Ruby exception as "Class: message" and its backtrace; a Java one with its stack. */
    static String describe(ThreadContext context, RuntimeException e) {
        if (!(e instanceof RaiseException)) {
            if (e instanceof InvalidResponse) {
                return e.getMessage();
            }
            StringBuilder sb = new StringBuilder(e.toString());
            for (StackTraceElement frame : e.getStackTrace()) {
                sb.append("\n\t").append(frame);
            }
            return sb.toString();
        }
        RubyException exception = ((RaiseException) e).getException();
        StringBuilder sb = new StringBuilder()
            .append(exception.getMetaClass().getName()).append(": ")
            .append(exception.message(context).asJavaString());
        IRubyObject backtrace = exception.getBacktrace();
        if (backtrace instanceof RubyArray) {
            RubyArray<?> lines = (RubyArray<?>) backtrace;
            for (int i = 0; i < lines.getLength(); i++) {
                sb.append("\n\t").append(lines.entry(i).toString());
            }
        }
        return sb.toString();
    }
}
