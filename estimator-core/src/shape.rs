//! Model shapes: the published configurations of real models (layers, hidden size, heads, FFN, vocabulary,
//! experts), and a generic dense shape derived from a parameter count.
//!
//! The step needs a shape for the sizes of the messages a framework sends (one FSDP unit is one transformer
//! block; a tensor-parallel all-reduce is b x s x h; an expert-parallel all-to-all is tokens x top-k x h) and
//! for the activations a GPU keeps. The parameter count alone keeps working: it gets [`generic`].

use serde::Serialize;

/// The mixture-of-experts part of a shape.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Moe {
    /// Routed experts per MoE layer.
    pub experts: u32,
    /// Shared experts per MoE layer (every token goes through them).
    pub shared_experts: u32,
    /// Routed experts each token goes to.
    pub top_k: u32,
    /// FFN width of one expert.
    pub expert_ffn: u32,
    /// Leading layers that stay dense (DeepSeek-V3's `first_k_dense_replace`); the rest are MoE layers.
    pub dense_layers: u32,
}

/// One model's shape. Parameter counts are the published ones; what is derived from them is in the methods.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ModelShape {
    /// Catalog key (`llama-3.1-70b`), or `generic` for a shape derived from a parameter count.
    pub key: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Transformer blocks (`num_hidden_layers`).
    pub layers: u32,
    /// Hidden size h (`hidden_size`).
    pub hidden: u32,
    /// Attention heads (`num_attention_heads`).
    pub heads: u32,
    /// Key/value heads (`num_key_value_heads`; equal to `heads` without grouped-query attention).
    pub kv_heads: u32,
    /// FFN width as the configuration's `intermediate_size` gives it (the dense layers'; for a model whose
    /// every layer is MoE, the configuration's value).
    pub ffn: u32,
    /// Vocabulary size (`vocab_size`).
    pub vocab: u32,
    /// Input and output embeddings share one matrix (`tie_word_embeddings`).
    pub tied_embeddings: bool,
    /// Experts, for a mixture-of-experts model.
    pub moe: Option<Moe>,
    /// Total parameters, as published (or derived, for the generic shape).
    pub params: f64,
    /// Parameters each token goes through (equal to `params` for a dense model).
    pub active_params: f64,
}

impl ModelShape {
    /// Embedding parameters: the input matrix, and the output one unless tied.
    pub fn embedding_params(&self) -> f64 {
        let one = f64::from(self.vocab) * f64::from(self.hidden);
        if self.tied_embeddings { one } else { 2.0 * one }
    }

    /// Layers that are MoE layers (0 for a dense model).
    pub fn moe_layers(&self) -> u32 {
        self.moe.map_or(0, |m| self.layers.saturating_sub(m.dense_layers))
    }

    /// Parameters of the routed experts, all layers: a SwiGLU expert has 3 x h x expert FFN weights. These are
    /// the parameters expert parallelism splits.
    pub fn expert_params(&self) -> f64 {
        match self.moe {
            Some(m) => {
                let per_expert = 3.0 * f64::from(self.hidden) * f64::from(m.expert_ffn);
                (f64::from(self.moe_layers()) * f64::from(m.experts) * per_expert).min(self.params)
            }
            None => 0.0,
        }
    }

    /// Parameters of one transformer block outside the routed experts (attention, norms, dense or shared FFN,
    /// router): what every data-parallel rank holds of a block. Embeddings are not in any block.
    pub fn block_params(&self) -> f64 {
        let rest = (self.params - self.embedding_params() - self.expert_params()).max(0.0);
        rest / f64::from(self.layers.max(1))
    }

    /// Routed-expert parameters of one MoE block.
    pub fn block_expert_params(&self) -> f64 {
        match self.moe_layers() {
            0 => 0.0,
            n => self.expert_params() / f64::from(n),
        }
    }

    /// Whether this is a mixture-of-experts model.
    pub fn is_moe(&self) -> bool {
        self.moe.is_some_and(|m| m.experts > 1)
    }
}

/// GPT-3's aspect ratio: hidden size over layers is 128 for the 6.7B, 13B and 175B models (Brown et al. 2020,
/// "Language Models are Few-Shot Learners", table 2.1: 4096/32, 5120/40, 12288/96).
pub const GENERIC_ASPECT_RATIO: f64 = 128.0;
/// Head size of the generic shape (GPT-3 table 2.1: d_head 128 from 6.7B up).
pub const GENERIC_HEAD_DIM: u32 = 128;
/// Vocabulary of the generic shape: GPT-2/GPT-3's BPE, 50257 tokens (Radford et al. 2019; Brown et al. 2020).
pub const GENERIC_VOCAB: u32 = 50_257;

/// A dense GPT-3-style shape of about `params` parameters: 12 x layers x h^2 plus the embedding = params with
/// h = 128 x layers (table 2.1's aspect ratio), h a multiple of 128, FFN 4h, heads h/128.
pub fn generic(params: f64) -> ModelShape {
    let p = if params.is_finite() { params.max(1.0) } else { 1.0 };
    // powf rather than cbrt: the page already carries powf, and cbrt would add its own code.
    let ideal = (p * GENERIC_ASPECT_RATIO / 12.0).powf(1.0 / 3.0);
    let step = f64::from(GENERIC_HEAD_DIM);
    let hidden = ((ideal / step).round().max(1.0) * step).min(1e6);
    let embedding = f64::from(GENERIC_VOCAB) * hidden;
    let layers = ((p - embedding) / (12.0 * hidden * hidden)).round().clamp(1.0, 100_000.0);
    // Both are bounded above, so the casts are exact.
    let (hidden, layers) = (hidden as u32, layers as u32);
    ModelShape {
        key: "generic",
        name: "a dense model of this size",
        layers,
        hidden,
        heads: hidden / GENERIC_HEAD_DIM,
        kv_heads: hidden / GENERIC_HEAD_DIM,
        ffn: 4 * hidden,
        vocab: GENERIC_VOCAB,
        tied_embeddings: true,
        moe: None,
        params: p,
        active_params: p,
    }
}

/// The catalog of published shapes. Each `source` names the configuration file the numbers were read from.
pub static MODELS: &[ModelShape] = &[
    ModelShape {
        key: "llama-3.2-1b",
        name: "Llama 3.2 1B",
        layers: 16,
        hidden: 2048,
        heads: 32,
        kv_heads: 8,
        ffn: 8192,
        vocab: 128_256,
        tied_embeddings: true,
        moe: None,
        params: 1.23e9,
        active_params: 1.23e9,
    },
    ModelShape {
        key: "llama-3.2-3b",
        name: "Llama 3.2 3B",
        layers: 28,
        hidden: 3072,
        heads: 24,
        kv_heads: 8,
        ffn: 8192,
        vocab: 128_256,
        tied_embeddings: true,
        moe: None,
        params: 3.21e9,
        active_params: 3.21e9,
    },
    ModelShape {
        key: "llama-3.1-8b",
        name: "Llama 3.1 8B",
        layers: 32,
        hidden: 4096,
        heads: 32,
        kv_heads: 8,
        ffn: 14_336,
        vocab: 128_256,
        tied_embeddings: false,
        moe: None,
        params: 8.03e9,
        active_params: 8.03e9,
    },
    ModelShape {
        key: "llama-3.1-70b",
        name: "Llama 3.1 70B",
        layers: 80,
        hidden: 8192,
        heads: 64,
        kv_heads: 8,
        ffn: 28_672,
        vocab: 128_256,
        tied_embeddings: false,
        moe: None,
        params: 70.6e9,
        active_params: 70.6e9,
    },
    ModelShape {
        key: "llama-3.1-405b",
        name: "Llama 3.1 405B",
        layers: 126,
        hidden: 16384,
        heads: 128,
        kv_heads: 8,
        ffn: 53_248,
        vocab: 128_256,
        tied_embeddings: false,
        moe: None,
        params: 405e9,
        active_params: 405e9,
    },
    ModelShape {
        key: "mistral-7b",
        name: "Mistral 7B",
        layers: 32,
        hidden: 4096,
        heads: 32,
        kv_heads: 8,
        ffn: 14_336,
        vocab: 32_000,
        tied_embeddings: false,
        moe: None,
        params: 7.3e9,
        active_params: 7.3e9,
    },
    ModelShape {
        key: "qwen2.5-7b",
        name: "Qwen2.5 7B",
        layers: 28,
        hidden: 3584,
        heads: 28,
        kv_heads: 4,
        ffn: 18_944,
        vocab: 152_064,
        tied_embeddings: false,
        moe: None,
        params: 7.61e9,
        active_params: 7.61e9,
    },
    ModelShape {
        key: "qwen2.5-72b",
        name: "Qwen2.5 72B",
        layers: 80,
        hidden: 8192,
        heads: 64,
        kv_heads: 8,
        ffn: 29_568,
        vocab: 152_064,
        tied_embeddings: false,
        moe: None,
        params: 72.7e9,
        active_params: 72.7e9,
    },
    ModelShape {
        key: "gpt3-175b",
        name: "GPT-3 175B",
        layers: 96,
        hidden: 12288,
        heads: 96,
        kv_heads: 96,
        ffn: 49_152,
        vocab: 50_257,
        tied_embeddings: true,
        moe: None,
        params: 175e9,
        active_params: 175e9,
    },
    ModelShape {
        key: "mixtral-8x7b",
        name: "Mixtral 8x7B",
        layers: 32,
        hidden: 4096,
        heads: 32,
        kv_heads: 8,
        ffn: 14_336,
        vocab: 32_000,
        tied_embeddings: false,
        moe: Some(Moe { experts: 8, shared_experts: 0, top_k: 2, expert_ffn: 14_336, dense_layers: 0 }),
        params: 46.7e9,
        active_params: 12.9e9,
    },
    ModelShape {
        key: "mixtral-8x22b",
        name: "Mixtral 8x22B",
        layers: 56,
        hidden: 6144,
        heads: 48,
        kv_heads: 8,
        ffn: 16_384,
        vocab: 32_768,
        tied_embeddings: false,
        moe: Some(Moe { experts: 8, shared_experts: 0, top_k: 2, expert_ffn: 16_384, dense_layers: 0 }),
        params: 141e9,
        active_params: 39e9,
    },
    ModelShape {
        key: "qwen3-30b-a3b",
        name: "Qwen3 30B-A3B",
        layers: 48,
        hidden: 2048,
        heads: 32,
        kv_heads: 4,
        ffn: 6144,
        vocab: 151_936,
        tied_embeddings: false,
        moe: Some(Moe { experts: 128, shared_experts: 0, top_k: 8, expert_ffn: 768, dense_layers: 0 }),
        params: 30.5e9,
        active_params: 3.3e9,
    },
    ModelShape {
        key: "qwen3-235b-a22b",
        name: "Qwen3 235B-A22B",
        layers: 94,
        hidden: 4096,
        heads: 64,
        kv_heads: 4,
        ffn: 12_288,
        vocab: 151_936,
        tied_embeddings: false,
        moe: Some(Moe { experts: 128, shared_experts: 0, top_k: 8, expert_ffn: 1536, dense_layers: 0 }),
        params: 235e9,
        active_params: 22e9,
    },
    ModelShape {
        key: "deepseek-v3",
        name: "DeepSeek-V3",
        layers: 61,
        hidden: 7168,
        heads: 128,
        kv_heads: 128,
        ffn: 18_432,
        vocab: 129_280,
        tied_embeddings: false,
        moe: Some(Moe { experts: 256, shared_experts: 1, top_k: 8, expert_ffn: 2048, dense_layers: 3 }),
        params: 671e9,
        active_params: 37e9,
    },
    ModelShape {
        key: "gpt-oss-20b",
        name: "gpt-oss-20b",
        layers: 24,
        hidden: 2880,
        heads: 64,
        kv_heads: 8,
        ffn: 2880,
        vocab: 201_088,
        tied_embeddings: false,
        moe: Some(Moe { experts: 32, shared_experts: 0, top_k: 4, expert_ffn: 2880, dense_layers: 0 }),
        params: 21e9,
        active_params: 3.6e9,
    },
    ModelShape {
        key: "gpt-oss-120b",
        name: "gpt-oss-120b",
        layers: 36,
        hidden: 2880,
        heads: 64,
        kv_heads: 8,
        ffn: 2880,
        vocab: 201_088,
        tied_embeddings: false,
        moe: Some(Moe { experts: 128, shared_experts: 0, top_k: 4, expert_ffn: 2880, dense_layers: 0 }),
        params: 117e9,
        active_params: 5.1e9,
    },
];

/// Where each shape's numbers come from, by key (apart from the table so that a binary which never asks, the page,
/// leaves the text out).
pub fn source(key: &str) -> &'static str {
    match key {
        "generic" => {
            "derived from the parameter count with GPT-3's shape (Brown et al. 2020, table 2.1: h = 128 x \
                 layers, FFN 4h, 12 h^2 parameters per layer)"
        }
        "llama-3.2-1b" => "huggingface.co/meta-llama/Llama-3.2-1B config.json; 1.23B parameters (model card)",
        "llama-3.2-3b" => "huggingface.co/meta-llama/Llama-3.2-3B config.json; 3.21B parameters (model card)",
        "llama-3.1-8b" => {
            "huggingface.co/meta-llama/Llama-3.1-8B config.json; 8.03B parameters (model card; meta-llama/llama-models sku_list.py)"
        }
        "llama-3.1-70b" => "huggingface.co/meta-llama/Llama-3.1-70B config.json; 70.6B parameters (model card)",
        "llama-3.1-405b" => "huggingface.co/meta-llama/Llama-3.1-405B config.json; 405B parameters (model card)",
        "mistral-7b" => {
            "huggingface.co/mistralai/Mistral-7B-v0.1 config.json; 7.3B parameters (Jiang et al. 2023, 'Mistral 7B')"
        }
        "qwen2.5-7b" => "huggingface.co/Qwen/Qwen2.5-7B config.json; 7.61B parameters (model card)",
        "qwen2.5-72b" => "huggingface.co/Qwen/Qwen2.5-72B config.json; 72.7B parameters (model card)",
        "gpt3-175b" => {
            "Brown et al. 2020, 'Language Models are Few-Shot Learners', table 2.1 (96 layers, d_model 12288, 96 heads, FFN 4 x d_model); GPT-2's 50257-token BPE, embeddings tied as in GPT-2"
        }
        "mixtral-8x7b" => {
            "huggingface.co/mistralai/Mixtral-8x7B-v0.1 config.json (num_local_experts 8, num_experts_per_tok 2); 46.7B total, 12.9B active (Jiang et al. 2024, 'Mixtral of Experts')"
        }
        "mixtral-8x22b" => {
            "huggingface.co/mistralai/Mixtral-8x22B-v0.1 config.json; 141B total, 39B active (Mistral AI, 'Cheaper, Better, Faster, Stronger', 2024)"
        }
        "qwen3-30b-a3b" => {
            "huggingface.co/Qwen/Qwen3-30B-A3B config.json (num_experts 128, num_experts_per_tok 8, moe_intermediate_size 768, decoder_sparse_step 1); 30.5B total, 3.3B active (model card)"
        }
        "qwen3-235b-a22b" => {
            "huggingface.co/Qwen/Qwen3-235B-A22B config.json (num_experts 128, num_experts_per_tok 8, moe_intermediate_size 1536); 235B total, 22B active (model card)"
        }
        "deepseek-v3" => {
            "huggingface.co/deepseek-ai/DeepSeek-V3 config.json (n_routed_experts 256, n_shared_experts 1, num_experts_per_tok 8, moe_intermediate_size 2048, first_k_dense_replace 3; multi-head latent attention); 671B total, 37B active (DeepSeek-V3 technical report, 2024)"
        }
        "gpt-oss-20b" => {
            "huggingface.co/openai/gpt-oss-20b config.json (num_local_experts 32, experts_per_token 4); 21B total, 3.6B active (openai/gpt-oss README)"
        }
        "gpt-oss-120b" => {
            "huggingface.co/openai/gpt-oss-120b config.json (num_local_experts 128, experts_per_token 4); 117B total, 5.1B active (openai/gpt-oss README)"
        }
        _ => {
            "derived from the parameter count with GPT-3's shape (Brown et al. 2020, table 2.1: h = 128 x layers, \
              FFN 4h, 12 h^2 parameters per layer)"
        }
    }
}

/// Finds a catalog shape by key or name, ignoring case, spaces, dots, dashes and underscores
/// (`Llama 3.1 70B`, `llama-3.1-70b` and `llama3.1_70b` are the same).
pub fn lookup(name: &str) -> Option<&'static ModelShape> {
    let want = squash(name);
    if want.is_empty() {
        return None;
    }
    MODELS.iter().find(|m| squash(m.key) == want || squash(m.name) == want)
}

fn squash(s: &str) -> String {
    s.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// The catalog keys, comma-separated, for error messages.
pub fn keys() -> String {
    MODELS.iter().map(|m| m.key).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_counts_match_the_shapes() {
        // Attention (q, k, v, o with grouped-query heads of 128) plus a SwiGLU FFN of 3 x h x ffn per block,
        // plus untied embeddings: Llama 3.1 8B is 8.03B.
        let m = lookup("Llama 3.1 8B").expect("in the catalog");
        let (h, kv, ffn) = (4096.0, 8.0 * 128.0, 14336.0);
        let block = h * h * 2.0 + 2.0 * h * kv + 3.0 * h * ffn;
        assert!((m.block_params() / block - 1.0).abs() < 0.01, "{} vs {block}", m.block_params());
        // DeepSeek-V3: 58 MoE layers of 256 experts hold most of the 671B.
        let d = lookup("deepseek-v3").expect("in the catalog");
        assert_eq!(d.moe_layers(), 58);
        assert!(d.expert_params() > 0.95 * d.params && d.expert_params() < d.params);
        for m in MODELS {
            assert!(m.block_params() > 0.0, "{}", m.key);
            assert!(m.active_params <= m.params, "{}", m.key);
            assert_eq!(lookup(m.key).map(|x| x.key), Some(m.key));
            assert!(source(m.key).contains("config.json") || source(m.key).contains("table 2.1"), "{}", m.key);
        }
    }

    #[test]
    fn the_generic_shape_follows_gpt3() {
        let g = generic(175e9);
        assert_eq!((g.hidden, g.layers), (12288, 96), "GPT-3 175B's own shape");
        let g = generic(7e9);
        assert!((g.layers as f64 * 12.0 * (g.hidden as f64).powi(2) / 7e9 - 1.0).abs() < 0.1);
        assert_eq!(generic(1.0).layers, 1);
        assert!(generic(f64::NAN).params >= 1.0);
    }
}
