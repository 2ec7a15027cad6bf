package org.nettyrack.jruby;

import java.util.List;
import org.jruby.Ruby;
import org.jruby.RubyHash;
import org.jruby.RubyString;
import org.jruby.runtime.ThreadContext;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.RequestId;
import org.nettyrack.core.RequestStart;
import org.nettyrack.core.TraceParent;

/**
 * The env entries that tie a request to the hops around it, added by {@link EnvBuilder} after
 * the request's headers (so these replace what an {@code X_Request_Id} spelling could have put
 * there):
 * <ul>
 * <li>{@code HTTP_X_REQUEST_ID}: the request's id ({@link RequestId}) when it sent none it
 * keeps (none, several, or an insane one), so that Rails' {@code ActionDispatch::RequestId},
 * the access log and the response name it alike; a kept one stays as sent;</li>
 * <li>{@code HTTP_X_REQUEST_START}: {@code t=} and the head's arrival in µs since the epoch,
 * when the request came without one (APM agents compute the queue time from it); one that was
 * sent stays as sent, even when it is no time;</li>
 * <li>{@code nettyrack.trace_id}, {@code nettyrack.parent_id}, {@code nettyrack.trace_sampled}:
 * the parts of one valid W3C {@code traceparent} ({@link TraceParent}); none of them otherwise.
 * {@code HTTP_TRACEPARENT} and {@code HTTP_TRACESTATE} stay as sent.</li>
 * </ul>
 */
final class TracingEnv {
    private final Ruby runtime;
    private final RubyString requestId;
    private final RubyString requestStart;
    private final RubyString traceId;
    private final RubyString parentId;
    private final RubyString traceSampled;

    TracingEnv(Ruby runtime, EnvKeys keys) {
        this.runtime = runtime;
        requestId = keys.key("HTTP_X_REQUEST_ID");
        requestStart = keys.key("HTTP_X_REQUEST_START");
        traceId = keys.key("nettyrack.trace_id");
        parentId = keys.key("nettyrack.parent_id");
        traceSampled = keys.key("nettyrack.trace_sampled");
    }

    void add(ThreadContext context, RubyHash env, RackRequest request) {
        if (!RequestId.kept(request)) {
            env.op_aset(context, requestId, RubyStrings.binary(runtime, request.requestId()));
        }
        if (request.header("x-request-start") == null) {
            env.op_aset(context, requestStart, RubyStrings.binary(runtime, RequestStart.headerBytes(request.times().arrivedMicros())));
        }
        TraceParent trace = null;
        if (request.header("traceparent") != null) { // most requests carry none: no list for them
            List<String> sent = request.headers("traceparent");
            trace = sent.size() == 1 ? TraceParent.parse(sent.get(0)) : null;
        }
        if (trace != null) {
            env.op_aset(context, traceId, RubyStrings.binary(runtime, trace.traceId()));
            env.op_aset(context, parentId, RubyStrings.binary(runtime, trace.parentId()));
            env.op_aset(context, traceSampled, runtime.newBoolean(trace.sampled()));
        }
    }
}
