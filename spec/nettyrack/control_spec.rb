# frozen_string_literal: true

require "nettyrack/control"

RSpec.describe Nettyrack::Control do
  describe ".url" do
    it "reads tcp://HOST:PORT, IPv6 in brackets" do
      expect([described_class.url("tcp://127.0.0.1:9293"), described_class.url("tcp://[::1]:0")])
        .to eq([["127.0.0.1", 9293], ["::1", 0]])
    end

    it "reads unix:///PATH as its Bind" do
      expect(described_class.url("unix:///run/ctl.sock?mode=0600").to_s).to eq("unix:///run/ctl.sock?mode=0600")
    end

    it "refuses other schemes and shapes in one sentence" do
      expect { described_class.url("ssl://127.0.0.1:9293") }
        .to raise_error(Nettyrack::ConfigError,
                        "ssl:// control URLs are not supported yet (ssl://127.0.0.1:9293); use tcp://HOST:PORT or unix:///PATH")
      expect { described_class.url("http://127.0.0.1:9293") }.to raise_error(Nettyrack::ConfigError, /\Ahttp:\/\/ control URLs/)
      expect { described_class.url("localhost") }
        .to raise_error(Nettyrack::ConfigError, '"localhost" is not a control URL (use tcp://HOST:PORT or unix:///PATH)')
    end
  end

  describe ".token_setting" do
    it "keeps a token, and reads none as the opt-out" do
      expect(%w[s3cret none].map { |value| described_class.token_setting(value) }).to eq(["s3cret", :none])
      expect(described_class.token_setting(:none)).to eq(:none)
    end

    it "refuses an empty token" do
      expect { described_class.token_setting("") }.to raise_error(Nettyrack::ConfigError, /must not be empty/)
    end
  end

  describe ".token" do
    it "makes up a different 128-bit token each time none is configured" do
      tokens = Array.new(2) { described_class.token(nil) }
      expect(tokens.map(&:value)).to all(match(/\A\h{32}\z/))
      expect(tokens.map(&:value).uniq.size).to eq(2)
      expect(tokens.map(&:generated?)).to eq([true, true])
    end

    it "keeps a configured token, and has none after the opt-out" do
      expect(described_class.token("s3cret").to_a).to eq(["s3cret", false])
      expect(described_class.token(:none).to_a).to eq([nil, false])
    end
  end

  describe ".boot_line" do
    it "prints a made-up token, never a configured one" do
      url = "tcp://127.0.0.1:9293"
      expect(described_class.boot_line(url, described_class::Token.new("abc", true)))
        .to eq("nettyrack: control endpoint on tcp://127.0.0.1:9293 (token abc)")
      expect(described_class.boot_line(url, described_class::Token.new("s3cret", false)))
        .to eq("nettyrack: control endpoint on tcp://127.0.0.1:9293 (token as configured)")
      expect(described_class.boot_line(url, described_class::Token.new(nil, false)))
        .to eq("nettyrack: control endpoint on tcp://127.0.0.1:9293 (no token: anyone who can connect may stop the server)")
    end
  end
end
