# frozen_string_literal: true

# rack.hijack through a door (docs/rack.md, "rack.hijack"): spec/fixtures/contract_app's /hijack
# routes (lib/contract_hijack.rb). The Netty door hands the app the connection, whole or after
# its head; the servlet door offers no full hijack (rack.hijack? false, no rack.hijack) and
# runs a rack.hijack response header as a streaming body, its writes the response.
RSpec.shared_examples "the hijack contract" do
  # A socket that has sent +request+.
  def hijack_socket(request)
    socket = TCPSocket.new("127.0.0.1", @door.port)
    socket.write(request)
    socket
  end

  # Reads +socket+ into +buffer+ up to +pattern+ (its MatchData), failing after 10 s.
  def read_upto(socket, buffer, pattern)
    Deadline.read_until(socket, buffer, pattern, 10) || raise("no #{pattern.inspect} within 10 s; got #{buffer.inspect}")
  end

  it "gives a full hijack the connection where the door offers one, and says it does not where not" do
    if @door.container?
      reply = raw("GET #{target('/hijack/full')} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      expect(reply).to start_with("HTTP/1.1 200").and end_with("no hijack: rack.hijack? false, rack.hijack absent")
      next
    end
    socket = hijack_socket("GET #{target('/hijack/full')} HTTP/1.1\r\nHost: x\r\n\r\n")
    head = +""
    read_upto(socket, head, /\r\n\r\n/)
    expect(head).to eq("HTTP/1.1 101 Switching Protocols\r\nupgrade: echo\r\nconnection: upgrade\r\n" \
                      "x-offer: rack.hijack? true, rack.hijack present\r\nx-hijack-io: same\r\n\r\n")
    socket.write("hello\n")
    echoed = +""
    read_upto(socket, echoed, /hello\n/)
    socket.close_write # the app reads EOF and closes its IO; the door then ends the connection
    limit = Deadline.now + 10
    nil while Deadline.read_some(socket, echoed, limit)
    expect(Deadline.now).to be < limit # the end came, not the deadline
    expect(echoed).to eq("hello\n") # the app's echo, and nothing of the server's
  ensure
    socket&.close
  end

  it "runs a rack.hijack response header: unframed on the door's socket, or as the response's body" do
    reply = raw("GET #{target('/hijack/partial')} HTTP/1.1\r\nHost: x\r\n\r\n")
    head, body = reply.split("\r\n\r\n", 2)
    expect(head).to start_with("HTTP/1.1 200")
    expect(head.downcase).to include("content-type: text/plain")
    expect(head.downcase).not_to include("rack.hijack")
    if @door.container?
      expect(head.downcase).to include("transfer-encoding: chunked")
      expect(body).to match(/\A9\r\nstreamed \r\n[aA]\r\nby the app\r\n0\r\n\r\n\z/) # chunk sizes in hex, Jetty's upper case
    else
      expect(head.downcase).not_to include("content-length", "transfer-encoding")
      expect(body).to eq("streamed by the app") # then the app closed the connection
    end
    expect(get("/whole").body).to eq("abcd")
  end
end
