# frozen_string_literal: true

# What a door does when the app fails (spec/fixtures/contract_app's /raise, /raise-in-body): the
# core's one 500 before anything was sent, a cut connection after, the error logged, and the
# door serving on.
RSpec.shared_examples "the app error contract" do
  it "answers 500 Internal Server Error when the app raises, logs it, and serves on" do
    response = get("/raise")
    expect(response.code).to eq("500")
    expect(response["content-type"]).to start_with("text/plain")
    expect(response.body).to eq("Internal Server Error\n")
    expect(@door.log_match(/boom/)[0]).to eq("boom")
    expect(get("/whole").body).to eq("abcd")
  end

  it "cuts the connection when the body raises after the head went out, logs it, and serves on" do
    reply = raw("GET #{target('/raise-in-body')} HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(reply).to start_with("HTTP/1.1 200").and include("partial")
    expect(reply).not_to end_with("0\r\n\r\n")
    expect(@door.log_match(/broken body/)[0]).to eq("broken body")
    expect(get("/whole").body).to eq("abcd")
  end
end
