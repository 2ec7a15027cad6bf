package org.nettyrack.jruby;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyHash;
import org.jruby.RubyString;
import org.jruby.RubySymbol;
import org.jruby.javasupport.JavaUtil;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.nettyrack.core.HeaderVisitor;
import org.nettyrack.core.HostHeader;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.Upgrade;

/**
 * Builds the Rack env of a request: the constant entries (frozen keys and values made once),
 * plus the request's own. Rack SPEC wording, for the entries set here:
 * <ul>
 * <li>REQUEST_METHOD, SCRIPT_NAME ("The initial portion of the request URL's path that
 * corresponds to the application object ... This may be an empty string, if the application
 * corresponds to the root of the server": {@link RackRequest#scriptName}), PATH_INFO ("the
 * remainder of the request URL's path", raw), QUERY_STRING ("the portion of the request URL
 * that follows the ?, if any. May be empty, but is always required!"), SERVER_PROTOCOL;</li>
 * <li>SERVER_NAME and SERVER_PORT, from the Host header when present, else the local address;</li>
 * <li>HTTP_ variables for the client-supplied headers, CONTENT_TYPE and CONTENT_LENGTH
 * without the prefix; repeated headers joined with ", " (cookies with "; ");</li>
 * <li>rack.input, rack.errors, rack.url_scheme, rack.multithread, rack.response_finished;</li>
 * <li>HTTPS "on" when rack.url_scheme is https (as CGI servers and Puma set it);</li>
 * <li>the request's id, its start and its trace context ({@link TracingEnv});</li>
 * <li>the transport's own objects ({@link RackRequest#transportEnv}) as Java objects.</li>
 * </ul>
 * A header whose name contains "_" never overrides or joins the one spelled with "-"
 * ({@code X_Forwarded_For} cannot impersonate {@code X-Forwarded-For}, CVE-2024-45614 in
 * Puma), and cannot produce CONTENT_TYPE or CONTENT_LENGTH. Transfer-Encoding and
 * Content-Length are not passed on: the body has been de-chunked and CONTENT_LENGTH is its
 * actual length.
 */
final class EnvBuilder {
    private final Ruby runtime;
    private final EnvKeys keys;
    private final IRubyObject[] template;
    private final RubyString http11;
    private final RubyString get;
    private final RubyString post;
    private final RubyString httpsScheme;
    private final RubyString on;
    private final RubyString contentTypeHeader;
    private final RubyString contentLengthHeader;
    private final RubyString cookieKey;
    private final RubySymbol websocket;
    private final RubySymbol sse;
    private final TracingEnv tracing;

    EnvBuilder(Ruby runtime, EnvKeys keys, IRubyObject errors, String software) {
        this.runtime = runtime;
        this.keys = keys;
        RubyArray<?> version = RubyArray.newArray(runtime, runtime.newFixnum(1), runtime.newFixnum(3));
        version.setFrozen(true);
        template = new IRubyObject[] {
            keys.scriptName, keys.emptyString,
            keys.queryString, keys.emptyString,
            keys.serverSoftware, keys.key(software),
            keys.rackVersion, version,
            keys.rackUrlScheme, keys.key("http"),
            keys.rackErrors, errors,
            keys.rackMultithread, runtime.getTrue(),
            keys.rackMultiprocess, runtime.getFalse(),
            keys.rackRunOnce, runtime.getFalse(),
            keys.rackHijackP, runtime.getFalse(),
        };
        http11 = keys.key("HTTP/1.1");
        get = keys.key("GET");
        post = keys.key("POST");
        httpsScheme = keys.key("https");
        on = keys.key("on");
        contentTypeHeader = keys.key("HTTP_CONTENT_TYPE");
        contentLengthHeader = keys.key("HTTP_CONTENT_LENGTH");
        cookieKey = keys.key("HTTP_COOKIE");
        websocket = runtime.newSymbol("websocket");
        sse = runtime.newSymbol("sse");
        tracing = new TracingEnv(runtime, keys);
    }

    RubyHash build(ThreadContext context, RackRequest request, IRubyObject input) {
        RubyHash env = RubyHash.newHash(runtime);
        for (int i = 0; i < template.length; i += 2) {
            env.fastASet(template[i], template[i + 1]);
        }
        String method = request.method();
        env.op_aset(context, keys.requestMethod,
            "GET".equals(method) ? get : "POST".equals(method) ? post : RubyStrings.binary(runtime, method));
        String protocol = request.protocol();
        env.op_aset(context, keys.serverProtocol, "HTTP/1.1".equals(protocol) ? http11 : RubyStrings.binary(runtime, protocol));
        if ("https".equals(request.scheme())) {
            env.op_aset(context, keys.rackUrlScheme, httpsScheme);
            env.op_aset(context, keys.https, on);
        }
        setTarget(context, env, request.target(), request.scriptName());
        env.op_aset(context, keys.remoteAddr, RubyStrings.binary(runtime, request.remoteAddress()));

        Headers headers = new Headers(context, env);
        request.forEachHeader(headers);
        headers.addUnderscored();
        tracing.add(context, env, request);
        setServer(context, env, request, headers.host);

        long length = request.body().length();
        if (length > 0 || headers.sawContentLength) {
            env.op_aset(context, keys.contentLength, RubyStrings.binary(runtime, Long.toString(length)));
        }
        env.op_aset(context, keys.rackInput, input);
        env.op_aset(context, keys.rackResponseFinished, RubyArray.newArray(runtime));
        Upgrade upgrade = request.upgrade();
        if (upgrade != Upgrade.NONE) {
            // iodine's SPEC-WebSocket-Draft: "rack.upgrade?" is :websocket or :sse when the
            // request may be upgraded; the app answers by setting "rack.upgrade" to a handler.
            env.op_aset(context, keys.rackUpgradeP, upgrade == Upgrade.WEBSOCKET ? websocket : sse);
        }
        if (request.hijackable() || request.connectProtocol() != null) { // where the stream can switch protocols
            List<String> protocols = Upgrade.protocols(request);
            if (!protocols.isEmpty()) {
                RubyArray<?> offered = RubyArray.newArray(runtime, protocols.size());
                for (String offer : protocols) {
                    offered.append(RubyStrings.binary(runtime, offer));
                }
                env.op_aset(context, keys.rackProtocol, offered);
            }
        }
        Map<String, Object> extra = request.transportEnv();
        if (!extra.isEmpty()) {
            extra.forEach((name, value) ->
                env.op_aset(context, keys.key(name), JavaUtil.convertJavaToUsableRubyObject(runtime, value)));
        }
        return env;
    }

    private static int firstOf(String s, String chars, int from) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    private void setTarget(ThreadContext context, RubyHash env, String target, String scriptName) {
        String path = target;
        if (path.regionMatches(true, 0, "http", 0, 4)) {
            int scheme = path.indexOf("://");
            int end = scheme < 0 ? -1 : firstOf(path, "/?#", scheme + 3); // the authority ends there
            path = end < 0 ? "/" : path.charAt(end) == '/' ? path.substring(end) : "/" + path.substring(end);
        }
        int hash = path.indexOf('#');
        if (hash >= 0) {
            path = path.substring(0, hash);
        }
        int query = path.indexOf('?');
        if (query >= 0) {
            env.op_aset(context, keys.queryString, RubyStrings.binary(runtime, path, query + 1, path.length()));
            path = path.substring(0, query);
        }
        String pathInfo = scriptName.isEmpty() ? path : pathInfo(path, scriptName);
        if (pathInfo != path) { // mounted below the root: SCRIPT_NAME is the path's own prefix
            env.op_aset(context, keys.scriptName, RubyStrings.binary(runtime, path.substring(0, path.length() - pathInfo.length())));
        }
        env.op_aset(context, keys.pathInfo, RubyStrings.binary(runtime, pathInfo));
        env.op_aset(context, keys.requestUri, RubyStrings.binary(runtime, target));
    }

    /**
     * The path after the mount point ({@link RackRequest#scriptName}, a trailing "/" ignored):
     * "" for the mount point itself, "/rest" below it; the path itself (SCRIPT_NAME stays "")
     * when it is not under the mount point, which a transport must not let happen.
     */
    static String pathInfo(String path, String scriptName) {
        int end = scriptName.endsWith("/") ? scriptName.length() - 1 : scriptName.length();
        if (end == 0 || !path.regionMatches(0, scriptName, 0, end)) {
            return path;
        }
        return path.length() == end ? "" : path.charAt(end) == '/' ? path.substring(end) : path;
    }

    private void setServer(ThreadContext context, RubyHash env, RackRequest request, String host) {
        String name;
        String port;
        if (host == null || host.isEmpty()) {
            name = HostHeader.uriHost(request.localAddress());
            port = Integer.toString(request.localPort());
        } else { // a valid Host: the doors refuse others with 400
            name = HostHeader.name(host);
            port = HostHeader.port(host);
            if (port == null) {
                port = "https".equals(request.scheme()) ? "443" : "80";
            }
        }
        env.op_aset(context, keys.serverName, RubyStrings.binary(runtime, name));
        env.op_aset(context, keys.serverPort, RubyStrings.binary(runtime, port));
    }

    /** Copies header fields into the env as they are visited; see the class comment. */
    private final class Headers implements HeaderVisitor {
        private final ThreadContext context;
        private final RubyHash env;
        private List<CharSequence[]> underscored;
        String host;
        boolean sawContentLength;

        Headers(ThreadContext context, RubyHash env) {
            this.context = context;
            this.env = env;
        }

        @Override
        public void header(CharSequence name, CharSequence value) {
            String n = name.toString();
            if (n.indexOf('_') >= 0) {
                if (underscored == null) {
                    underscored = new ArrayList<>(2);
                }
                underscored.add(new CharSequence[] {n, value});
                return;
            }
            if (n.equalsIgnoreCase("content-length")) {
                sawContentLength = true;
                return;
            }
            if (n.equalsIgnoreCase("transfer-encoding")) {
                return;
            }
            if (host == null && n.equalsIgnoreCase("host")) {
                host = value.toString();
            }
            put(keys.forHeader(n), value);
        }

        void addUnderscored() {
            if (underscored == null) {
                return;
            }
            List<RubyString> seen = new ArrayList<>();
            for (CharSequence[] field : underscored) {
                RubyString key = keys.forHeader(field[0].toString());
                boolean framing = key.equals(contentTypeHeader) || key.equals(contentLengthHeader);
                if (framing || (env.fastARef(key) != null && !seen.contains(key))) {
                    continue;
                }
                seen.add(key);
                put(key, field[1]);
            }
        }

        private void put(RubyString key, CharSequence value) {
            IRubyObject existing = env.fastARef(key);
            if (existing == null) {
                env.op_aset(context, key, RubyStrings.binary(runtime, value));
            } else {
                RubyString joined = ((RubyString) existing).strDup(runtime);
                joined.cat(key.equals(cookieKey) ? "; ".getBytes() : ", ".getBytes());
                joined.cat(RubyStrings.binary(runtime, value).getByteList());
                env.op_aset(context, key, joined);
            }
        }
    }
}
