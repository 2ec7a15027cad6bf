package org.nettyrack.jruby;

import java.util.List;
import java.util.Map;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyHash;
import org.jruby.RubyInteger;
import org.jruby.RubyString;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.runtime.callsite.CachingCallSite;
import org.jruby.runtime.callsite.NormalCachingCallSite;
import org.nettyrack.core.FailureResponse;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseSink;
import org.nettyrack.core.Upgrade;
import org.nettyrack.core.push.PubSub;

/**
 * The one place a request enters Ruby ({@link PushBridge} is the one for push): a transport's
 * worker thread hands a request here, and this class builds the env, calls the Rack
 * application, and sends what it returned. An application failure is logged to
 * {@code rack.errors} here and answered by the core's {@link FailureResponse} (500, exception
 * text only in development); the body is closed and {@code rack.response_finished} callbacks
 * run here, whatever happened.
 *
 * <p>Flow: {@link RackInputs} → {@link EnvBuilder} → {@code app.call(env)} →
 * {@link ResponseHeadersReader} → {@link BodyWriter} → {@link ResponseSink}.
 * When the app accepts a {@code rack.upgrade}, {@link PushBridge} takes the handler
 * instead of the body writer, and the sink switches the connection to push. Where the
 * transport can hand over its connection, {@link RackHijack} offers {@code rack.hijack}; a
 * hijacked request's response is the application's, and nothing more is sent.
 */
public final class RackBridge implements RackHandler {
    private static final String SOFTWARE = "nettyrack";

    private final Ruby runtime;
    private final IRubyObject app;
    private final AppErrors appErrors;
    private final PushBridge pushBridge;
    private final boolean development;
    private final EnvKeys keys;
    private final EnvBuilder envBuilder;
    private final RackInputs inputs;
    private final BodyWriter bodyWriter;
    private final BodyShapes bodyShapes;
    private final RubyBacktraces backtraces;
    private final RackHijack hijacks;
    private final CachingCallSite callApp = new NormalCachingCallSite("call");
    private final CachingCallSite close = new NormalCachingCallSite("close");
    private final CachingCallSite callFinished = new NormalCachingCallSite("call");

    public RackBridge(IRubyObject app, IRubyObject errors, boolean development, PubSub pubsub) {
        this(app, errors, development, pubsub, SOFTWARE);
    }

    public RackBridge(IRubyObject app, IRubyObject errors, boolean development, PubSub pubsub, String software) {
        this.runtime = app.getRuntime();
        this.app = app;
        this.appErrors = new AppErrors(runtime, errors);
        this.pushBridge = new PushBridge(runtime, appErrors, pubsub);
        this.development = development;
        this.keys = new EnvKeys(runtime);
        this.envBuilder = new EnvBuilder(runtime, keys, errors, software);
        this.inputs = new RackInputs(runtime);
        this.bodyWriter = new BodyWriter(NettyrackLibrary.streams(runtime));
        this.bodyShapes = new BodyShapes(runtime);
        this.backtraces = new RubyBacktraces(runtime);
        this.hijacks = new RackHijack(runtime, keys);
    }

    /**
     * This version of the application is being replaced (a reload): its push clients get
     * {@code on_shutdown} and 1001, as on a stop. True once all of them have ended, false if
     * {@code timeoutMillis} passed first.
     */
    public boolean sendPushClientsAway(long timeoutMillis) throws InterruptedException {
        return pushBridge.sendAway(timeoutMillis);
    }

    @Override
    public Map<Long, List<String>> backtraces() {
        return backtraces.collect();
    }

    @Override
    public String runtimeVersion() {
        return org.jruby.runtime.Constants.VERSION;
    }

    @Override
    public void handle(RackRequest request, ResponseSink sink) {
        ThreadContext context = runtime.getCurrentContext();
        IRubyObject input = null;
        RubyHash env = null;
        ResponseBody body = null;
        int status = 500;
        IRubyObject headers = null;
        Throwable failure = null;
        try {
            input = inputs.open(context, request.body());
            env = envBuilder.build(context, request, input);
            RackHijack.Offer hijack = request.hijackable() ? hijacks.offer(context, env, sink)
                : request.connectProtocol() != null ? hijacks.protocolOnly(sink) : null;
            if (sink.honoursSendfile()) {
                env.op_aset(context, keys.httpXSendfileType, keys.xSendfile);
            }
            if (sink.acceptsEarlyHints()) {
                env.op_aset(context, keys.rackEarlyHints, EarlyHints.open(runtime, sink));
            }
            IRubyObject result = callApp.call(context, app, app, env);
            noteRoute(env, request);
            if (hijack != null && hijack.taken()) {
                status = 0; // full hijack: the application writes its own status, the server nothing
                return;
            }
            RubyArray<?> triple = toTriple(result);
            IRubyObject bodyValue = triple.entry(2);
            body = new ResponseBody(bodyValue, bodyShapes.of(bodyValue), close);
            headers = triple.entry(1);
            int code = statusCode(triple.entry(0));
            IRubyObject handler = upgradeHandler(request, env, code);
            if (handler != null) {
                status = code;
                ResponseHeadersReader.Result head = ResponseHeadersReader.read(context, headers);
                sink.upgrade(status, head.headers, pushBridge.open(handler, env, request.upgrade()));
                return;
            }
            ResponseHeadersReader.Result head = ResponseHeadersReader.read(context, headers);
            if (head.protocol != null) {
                if (hijack == null) {
                    throw new InvalidResponse("rack.protocol response header on a request that offered none ("
                        + request.protocol() + ")");
                }
                status = hijack.switchProtocols(context, head, body, env.fastARef(keys.rackProtocol), request.protocol());
                return;
            }
            status = checkedStatus(triple.entry(0), code);
            if (hijack != null && head.hijack != null && request.hijackable()) {
                hijack.partial(context, status, head);
                return;
            }
            bodyWriter.write(context, status, head, body, sink, request, input);
        } catch (ClientGone e) {
            failure = e;
            sink.abort();
        } catch (RuntimeException e) {
            failure = e;
            noteRoute(env, request);
            fail(context, request, sink, e);
        } finally {
            closeQuietly(context, body);
            if (input != null) {
                try {
                    inputs.close(context, input, request.body());
                } catch (RaiseException ignored) {
                    // The input was the app's to use; a failing close must not hide the response.
                }
            }
            if (env != null) {
                runFinished(context, env, failure == null ? status : 500, headers, failure);
            }
        }
    }

    /**
     * {@code env['nettyrack.route']}, a String the application may set to the route it matched
     * ({@code /users/:id}), kept with the request's times for its trace span; read once the
     * application returned (or raised), before anything is sent.
     */
    private void noteRoute(RubyHash env, RackRequest request) {
        IRubyObject route = env == null ? null : env.fastARef(keys.nettyrackRoute);
        if (route instanceof RubyString text) {
            request.times().route(text.asJavaString());
        }
    }

    private RubyArray<?> toTriple(IRubyObject result) {
        IRubyObject ary = result.checkArrayType();
        if (!(ary instanceof RubyArray) || ((RubyArray<?>) ary).getLength() != 3) {
            throw new InvalidResponse("the app returned " + result.getMetaClass().getName()
                + ", not a [status, headers, body] array");
        }
        return (RubyArray<?>) ary;
    }

    /**
     * iodine's SPEC-WebSocket-Draft: the app accepts an upgrade by setting
     * {@code env['rack.upgrade']} and answering a status below 300 (0 and 101 included); the
     * body is then never sent. The handler, or null for an ordinary response.
     */
    private IRubyObject upgradeHandler(RackRequest request, RubyHash env, int code) {
        if (request.upgrade() == Upgrade.NONE) {
            return null;
        }
        IRubyObject handler = env.fastARef(keys.rackUpgrade);
        if (handler == null || handler.isNil() || code < 0 || code >= 300) {
            return null;
        }
        return handler;
    }

    /** The status of an ordinary response: {@link #statusCode} of value, which must be 200 to 999. */
    private static int checkedStatus(IRubyObject value, int code) {
        if (code < 200) { // statusCode answers -1 for anything not a number up to 999
            throw new InvalidResponse("invalid status " + value.inspect() + " (must be an Integer from 200 to 999)");
        }
        return code;
    }

    /** The status as a number, or -1 when it is none. */
    private static int statusCode(IRubyObject value) {
        long code;
        if (value instanceof RubyInteger) {
            code = ((RubyInteger) value).getLongValue();
        } else if (value instanceof RubyString) {
            try {
                code = Long.parseLong(value.toString().trim());
            } catch (NumberFormatException e) {
                code = -1;
            }
        } else {
            code = -1;
        }
        return code < 0 || code > 999 ? -1 : (int) code;
    }

    /** Logs the failure to rack.errors; {@link FailureResponse} answers it. */
    private void fail(ThreadContext context, RackRequest request, ResponseSink sink, RuntimeException e) {
        String report = AppErrors.describe(context, e);
        appErrors.log(context, "Error handling " + request.method() + " " + request.target() + ": " + report);
        FailureResponse.send(sink, development ? report : null);
    }

    /** Closes a body the writer did not get to close (something failed first); reports a failing close. */
    private void closeQuietly(ThreadContext context, ResponseBody body) {
        if (body == null || body.closed()) {
            return;
        }
        try {
            body.close(context);
        } catch (RaiseException e) {
            appErrors.report(context, "Error closing body", e);
        }
    }

    /**
     * Rack 3.1: "rack.response_finished: An array of callables run by the server after the
     * response has been processed", each called with env, status, headers (the application's
     * own, repeated fields and all; an empty Hash when it returned none) and error.
     */
    private void runFinished(ThreadContext context, RubyHash env, int status, IRubyObject headers, Throwable failure) {
        IRubyObject callbacks = env.fastARef(keys.rackResponseFinished);
        if (!(callbacks instanceof RubyArray) || ((RubyArray<?>) callbacks).getLength() == 0) {
            return;
        }
        IRubyObject error = context.nil;
        if (failure instanceof RaiseException) {
            error = ((RaiseException) failure).getException();
        } else if (failure != null) {
            error = runtime.newRuntimeError(String.valueOf(failure.getMessage())).getException();
        }
        IRubyObject headersHash = headers != null ? headers : RubyHash.newHash(runtime);
        RubyArray<?> list = (RubyArray<?>) callbacks;
        // Rack 3.2's SPEC: "The callables will be called in reverse order" (the last registered
        // first, as middleware unwinds).
        for (int i = list.getLength() - 1; i >= 0; i--) {
            IRubyObject callback = list.entry(i);
            try {
                callFinished.call(context, callback, callback,
                    new IRubyObject[] {env, runtime.newFixnum(status), headersHash, error});
            } catch (RaiseException e) {
                appErrors.report(context, "Error in rack.response_finished callback", e);
            }
        }
    }
}
