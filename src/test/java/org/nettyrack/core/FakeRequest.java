package org.nettyrack.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A request as a transport would adapt it, with only the core's defaults behind it: header
 * look-ups scan the fields as sent. Public for the core.push tests.
 */
public final class FakeRequest implements RackRequest {
    private final String method;
    private final String target;
    private final String protocol;
    private final List<String[]> fields = new ArrayList<>();
    private String connectProtocol;
    private String requestId;

    private final RequestTimes times = RequestTimes.now();

    public FakeRequest(String method, String target, String protocol) {
        this.method = method;
        this.target = target;
        this.protocol = protocol;
    }

    /** Adds a header field (repeat a name for a repeated field). */
    /** An HTTP/2 extended CONNECT's {@code :protocol}. */
    public FakeRequest connectProtocol(String protocol) {
        this.connectProtocol = protocol;
        return this;
    }

    @Override
    public String connectProtocol() {
        return connectProtocol;
    }

    public FakeRequest header(String name, String value) {
        fields.add(new String[] {name, value});
        return this;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String target() {
        return target;
    }

    @Override
    public String protocol() {
        return protocol;
    }

    @Override
    public String scheme() {
        return "http";
    }

    @Override
    public void forEachHeader(HeaderVisitor visitor) {
        for (String[] field : fields) {
            visitor.header(field[0], field[1]);
        }
    }

    @Override
    public String header(String name) {
        for (String[] field : fields) {
            if (field[0].equalsIgnoreCase(name)) {
                return field[1];
            }
        }
        return null;
    }

    @Override
    public String remoteAddress() {
        return "127.0.0.1";
    }

    @Override
    public int remotePort() {
        return 40000;
    }

    @Override
    public String localAddress() {
        return "127.0.0.1";
    }

    @Override
    public int localPort() {
        return 9292;
    }

    @Override
    public RequestTimes times() {
        return times;
    }

    @Override
    public String requestId() {
        if (requestId == null) { // once, as a transport does
            requestId = RequestId.of(headers(RequestId.HEADER));
        }
        return requestId;
    }

    @Override
    public RequestBody body() {
        return RequestBody.EMPTY;
    }

    @Override
    public Upgrade upgrade() {
        return Upgrade.of(this);
    }
}
