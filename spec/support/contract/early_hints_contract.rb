# frozen_string_literal: true

# rack.early_hints (Puma's API) through a door: spec/fixtures/contract_app's /hints calls it with
# two links when the env offers it. The Netty door sends them as a 103 before the 200 on
# HTTP/1.1 (docs/rack.md, docs/static-files.md); the servlet door never offers the key (the
# core's ResponseSink#acceptsEarlyHints, which it leaves false), and no client of an HTTP/1.0
# request gets a 103.
RSpec.shared_examples "the early hints contract" do
  it "sends a 103 with the links before the 200 where the door offers rack.early_hints (not in a container)" do
    reply = raw("GET #{target('/hints')} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    if @door.container?
      expect(reply).to start_with("HTTP/1.1 200").and end_with("hints off")
      expect(reply).not_to include(" 103")
    else
      expect(reply).to start_with("HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload; as=style\r\n" \
                                  "link: </app.js>; rel=preload; as=script\r\n\r\nHTTP/1.1 200 OK\r\n")
      expect(reply).to end_with("hints on")
    end
  end

  it "offers no early hints to an HTTP/1.0 client" do
    reply = raw("GET #{target('/hints')} HTTP/1.0\r\nHost: x\r\n\r\n")
    expect(reply).to start_with("HTTP/1.1 200").and end_with("hints off")
  end
end
