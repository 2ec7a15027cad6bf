# frozen_string_literal: true

require "stringio"
require "nettyrack/say"

RSpec.describe Nettyrack::Say do
  it "writes the line and flushes it at once, answering 0" do
    out = StringIO.new
    allow(out).to receive(:flush).and_call_original
    expect(described_class.line(out, "nettyrack: hello")).to eq(0)
    expect(out.string).to eq("nettyrack: hello\n")
    expect(out).to have_received(:flush).once
  end
end
