package org.nettyrack.jruby;

import java.util.concurrent.ConcurrentHashMap;
import org.jruby.Ruby;
import org.jruby.RubyString;

/**
 * The env's keys as frozen Ruby strings, made once per runtime so no request allocates a key
 * (Puma's const.rb explains why that matters). Header names map to their {@code HTTP_*}
 * keys through a bounded cache filled as names are first seen.
 */
final class EnvKeys {
    private static final int MAX_CACHED_HEADERS = 1024;

    final RubyString requestMethod;
    final RubyString scriptName;
    final RubyString pathInfo;
    final RubyString queryString;
    final RubyString requestUri;
    final RubyString serverName;
    final RubyString serverPort;
    final RubyString serverProtocol;
    final RubyString serverSoftware;
    final RubyString remoteAddr;
    final RubyString contentType;
    final RubyString contentLength;
    final RubyString rackVersion;
    final RubyString rackUrlScheme;
    final RubyString https;
    final RubyString rackInput;
    final RubyString rackErrors;
    final RubyString rackMultithread;
    final RubyString rackMultiprocess;
    final RubyString rackRunOnce;
    final RubyString rackHijackP;
    final RubyString rackIsHijack;
    final RubyString rackResponseFinished;
    /** Puma's: a callable sending a 103 ({@link EarlyHints}). */
    final RubyString rackEarlyHints;
    /** Rack::Sendfile reads it: the transport honours {@code x-sendfile} response headers. */
    final RubyString httpXSendfileType;
    final RubyString xSendfile;
    final RubyString rackUpgradeP;
    final RubyString rackUpgrade;
    /** The application may set it: the route it matched, as a template ({@code /users/:id}), for traces. */
    final RubyString nettyrackRoute;
    /** Rack 3.1: the protocols the client asks to switch to (HTTP/1.1 {@code Upgrade}). */
    final RubyString rackProtocol;
    final RubyString emptyString;

    private final Ruby runtime;
    private final ConcurrentHashMap<String, RubyString> headerKeys = new ConcurrentHashMap<>();

    EnvKeys(Ruby runtime) {
        this.runtime = runtime;
        requestMethod = key("REQUEST_METHOD");
        scriptName = key("SCRIPT_NAME");
        pathInfo = key("PATH_INFO");
        queryString = key("QUERY_STRING");
        requestUri = key("REQUEST_URI");
        serverName = key("SERVER_NAME");
        serverPort = key("SERVER_PORT");
        serverProtocol = key("SERVER_PROTOCOL");
        serverSoftware = key("SERVER_SOFTWARE");
        remoteAddr = key("REMOTE_ADDR");
        contentType = key("CONTENT_TYPE");
        contentLength = key("CONTENT_LENGTH");
        rackVersion = key("rack.version");
        rackUrlScheme = key("rack.url_scheme");
        https = key("HTTPS");
        rackInput = key("rack.input");
        rackErrors = key("rack.errors");
        rackMultithread = key("rack.multithread");
        rackMultiprocess = key("rack.multiprocess");
        rackRunOnce = key("rack.run_once");
        rackHijackP = key("rack.hijack?");
        rackIsHijack = key("rack.hijack");
        rackResponseFinished = key("rack.response_finished");
        rackEarlyHints = key("rack.early_hints");
        httpXSendfileType = key("HTTP_X_SENDFILE_TYPE");
        xSendfile = key("x-sendfile");
        rackUpgradeP = key("rack.upgrade?");
        rackUpgrade = key("rack.upgrade");
        nettyrackRoute = key("nettyrack.route");
        rackProtocol = key("rack.protocol");
        emptyString = key("");
    }

    RubyString key(String name) {
        return RubyStrings.frozen(runtime, name);
    }

    /**
     * The env key for a request header: {@code Accept-Encoding} → {@code HTTP_ACCEPT_ENCODING};
     * Content-Type and Content-Length map to their CGI names without the prefix.
     */
    RubyString forHeader(String name) {
        RubyString cached = headerKeys.get(name);
        if (cached != null) {
            return cached;
        }
        RubyString made = key(cgiName(name));
        if (headerKeys.size() < MAX_CACHED_HEADERS) {
            headerKeys.putIfAbsent(name, made);
        }
        return made;
    }

    static String cgiName(String header) {
        StringBuilder sb = new StringBuilder(header.length() + 5);
        if (!header.equalsIgnoreCase("content-type") && !header.equalsIgnoreCase("content-length")) {
            sb.append("HTTP_");
        }
        for (int i = 0; i < header.length(); i++) {
            char c = header.charAt(i);
            sb.append(c == '-' ? '_' : (c >= 'a' && c <= 'z') ? (char) (c - 32) : c);
        }
        return sb.toString();
    }
}
