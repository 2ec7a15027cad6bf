package org.nettyrack.servlet;

import org.junit.jupiter.api.Nested;

/** The servlet door in Jetty 12 (ee10): every concern of {@link ServletDoorContract}, nested. */
class JettyDoorTest extends ServletDoorContract {
    @Override
    Container newContainer() {
        return new JettyContainer();
    }

    @Nested class Env extends DoorEnvContract { Env() { super(JettyDoorTest.this); } }
    @Nested class RequestBody extends DoorRequestBodyContract { RequestBody() { super(JettyDoorTest.this); } }
    @Nested class Response extends DoorResponseContract { Response() { super(JettyDoorTest.this); } }
    @Nested class StaticFiles extends DoorStaticFilesContract { StaticFiles() { super(JettyDoorTest.this); } }
    @Nested class WebSockets extends DoorWebSocketContract { WebSockets() { super(JettyDoorTest.this); } }
    @Nested class PubSub extends DoorPubSubContract { PubSub() { super(JettyDoorTest.this); } }
    @Nested class Sse extends DoorSseContract { Sse() { super(JettyDoorTest.this); } }
    @Nested class Lifecycle extends DoorLifecycleContract { Lifecycle() { super(JettyDoorTest.this); } }
}
