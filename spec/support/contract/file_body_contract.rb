# frozen_string_literal: true

# How a door sends a file the app answers with (spec/fixtures/contract_app's /file routes,
# lib/contract_files.rb): a to_path body whole with its length, one Range as 206 (416 past the
# end), If-None-Match as 304, HEAD without the bytes (the rules docs/static-files.md gives, in
# the core both doors share); and Rack::Sendfile's x-sendfile header, which the Netty door
# honours with --sendfile (started so: contract_doors.rb) and the servlet door does not offer.
RSpec.shared_examples "the file body contract" do
  let(:big) { Array.new(300_000) { |i| i % 251 }.pack("C*") } # /file/big, as lib/contract_files.rb writes it

  # The head (lower case) and body of +method+ +path+ with +fields+, on a connection closed after.
  def file_reply(path, fields = "", method: "GET")
    reply = raw("#{method} #{target(path)} HTTP/1.1\r\nHost: x\r\n#{fields}Connection: close\r\n\r\n")
    head, body = reply.b.split("\r\n\r\n".b, 2)
    [head.downcase, body]
  end

  it "sends a to_path body's file" do
    head, body = file_reply("/file")
    expect(head).to start_with("http/1.1 200").and include("content-length: 12")
    expect(body).to eq("a file body\n")
  end

  it "sends a large to_path body whole: its length, every byte, and its validators" do
    head, body = file_reply("/file/big")
    expect(head).to start_with("http/1.1 200").and include("content-length: 300000", "accept-ranges: bytes")
    # An IMF-fixdate (RFC 9110 5.6.7): the day of the month in two digits.
    expect(head).to match(/^etag: "\h+-\h+"\r?$/).and include("last-modified: thu, 05 mar 2026 07:08:09 gmt\r\n")
    expect(head).not_to include("transfer-encoding")
    expect(body.bytesize).to eq(big.bytesize)
    expect(body).to eq(big)
  end

  it "answers one Range with 206 and those bytes, a suffix range too, and 416 past the end" do
    head, body = file_reply("/file/big", "Range: bytes=1000-1999\r\n")
    expect(head).to start_with("http/1.1 206").and include("content-range: bytes 1000-1999/300000", "content-length: 1000")
    expect(body).to eq(big[1000, 1000])
    head, body = file_reply("/file/big", "Range: bytes=-10\r\n")
    expect(head).to start_with("http/1.1 206").and include("content-range: bytes 299990-299999/300000")
    expect(body).to eq(big[-10..])
    head, = file_reply("/file/big", "Range: bytes=400000-\r\n")
    expect(head).to start_with("http/1.1 416").and include("content-range: bytes */300000")
  end

  it "answers If-None-Match with the file's ETag 304, and HEAD with the length but no bytes" do
    etag = file_reply("/file/big").first[/^etag: (.*?)\r?$/, 1]
    head, body = file_reply("/file/big", "If-None-Match: #{etag}\r\n")
    expect(head).to start_with("http/1.1 304")
    expect(body.to_s).to eq("")
    head, body = file_reply("/file/big", method: "HEAD")
    expect(head).to start_with("http/1.1 200").and include("content-length: 300000")
    expect(body.to_s).to eq("")
  end

  it "sends Rack::Sendfile's answer: the x-sendfile file where the door honours it, else the to_path body" do
    type = env_at("/env")["HTTP_X_SENDFILE_TYPE"]
    expect(type).to eq(@door.container? ? nil : "x-sendfile")
    head, body = file_reply("/file/sendfile")
    expect(head).to start_with("http/1.1 200").and include("content-length: 300000")
    expect(head).not_to include("x-sendfile")
    expect(body).to eq(big)
  end
end
