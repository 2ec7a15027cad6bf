package org.nettyrack.netty;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;

/** A fake application: answers "METHOD target body-length" and remembers every request. */
public final class EchoHandler implements RackHandler {
    public final List<String> seen = new ArrayList<>();

    @Override
    public void handle(RackRequest request, ResponseSink response) {
        String text = request.method() + " " + request.target() + " " + request.body().length();
        seen.add(text);
        ResponseHeaders headers = new ResponseHeaders();
        headers.add("content-type", "text/plain");
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        response.respond(200, headers, body, 0, body.length);
    }
}
