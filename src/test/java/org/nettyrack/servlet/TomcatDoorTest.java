package org.nettyrack.servlet;

import org.junit.jupiter.api.Nested;

/** The servlet door in Tomcat 11: every concern of {@link ServletDoorContract}, nested. */
class TomcatDoorTest extends ServletDoorContract {
    @Override
    Container newContainer() {
        return new TomcatContainer();
    }

    @Nested class Env extends DoorEnvContract { Env() { super(TomcatDoorTest.this); } }
    @Nested class RequestBody extends DoorRequestBodyContract { RequestBody() { super(TomcatDoorTest.this); } }
    @Nested class Response extends DoorResponseContract { Response() { super(TomcatDoorTest.this); } }
    @Nested class StaticFiles extends DoorStaticFilesContract { StaticFiles() { super(TomcatDoorTest.this); } }
    @Nested class WebSockets extends DoorWebSocketContract { WebSockets() { super(TomcatDoorTest.this); } }
    @Nested class PubSub extends DoorPubSubContract { PubSub() { super(TomcatDoorTest.this); } }
    @Nested class Sse extends DoorSseContract { Sse() { super(TomcatDoorTest.this); } }
    @Nested class Lifecycle extends DoorLifecycleContract { Lifecycle() { super(TomcatDoorTest.this); } }
}
