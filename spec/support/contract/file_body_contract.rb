# frozen_string_literal: true

# How a door sends a to_path body (spec/fixtures/contract_app's /file routes).
RSpec.shared_examples "the file body contract" do
  it "sends a to_path body's file" do
    reply = raw("GET #{target('/file')} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    head, body = reply.split("\r\n\r\n", 2)
    expect(head.downcase).to start_with("http/1.1 200").and include("content-length: 12")
    expect(body).to eq("a file body\n")
  end
end
